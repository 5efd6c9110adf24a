import { spawn } from "node:child_process";

/** What a finished run of ffmpeg or ffprobe printed. */
export interface ToolOutput {
  stdout: Buffer;
  /** The end of what it printed on stderr (the reason when it fails), at most STDERR_TAIL_BYTES. */
  stderr: string;
}

/** Limits on one run: it is killed (SIGKILL, so it cannot ignore it) when either is passed. */
export interface ToolRunLimits {
  timeoutMs: number;
  /** ffprobe's JSON is a few kilobytes; anything far beyond is a hostile file's metadata. */
  maxStdoutBytes: number;
}

const STDERR_TAIL_BYTES = 4096;

/** The program is not there (ENOENT, EACCES): the server's setup, not the file, is at fault. */
export class ToolMissingError extends Error {
  override name = "ToolMissingError";
}

/** The run was killed: it took longer than its limit, or printed more than it may. */
export class ToolLimitError extends Error {
  override name = "ToolLimitError";
}

/** The program ran and failed (exit code not 0); `stderr` says why in its own words. */
export class ToolFailedError extends Error {
  override name = "ToolFailedError";
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}

/**
 * Runs a program with arguments (never through a shell) and answers what it printed. The child is
 * killed with SIGKILL when the time or output limit is passed, and this answers only once it has
 * exited, so no process outlives the call whatever happens.
 */
export function runTool(command: string, args: readonly string[], limits: ToolRunLimits): Promise<ToolOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = "";
    let limitBroken: string | null = null;
    let spawnError: NodeJS.ErrnoException | null = null;

    const kill = (reason: string) => {
      if (limitBroken !== null) return;
      limitBroken = reason;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(() => kill(`took longer than ${Math.round(limits.timeoutMs / 1000)} s`), limits.timeoutMs);

    child.stdout.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > limits.maxStdoutBytes) return kill(`printed more than ${limits.maxStdoutBytes} bytes`);
      stdout.push(chunk);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_BYTES);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      spawnError = error;
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const name = command.split("/").pop();
      if (spawnError) {
        const missing = spawnError.code === "ENOENT" || spawnError.code === "EACCES";
        return reject(missing ? new ToolMissingError(`${name} was not found (${command})`) : spawnError);
      }
      if (limitBroken !== null) return reject(new ToolLimitError(`${name} was stopped: it ${limitBroken}`));
      if (code !== 0) return reject(new ToolFailedError(`${name} failed (exit code ${code})`, stderr.trim()));
      resolve({ stdout: Buffer.concat(stdout), stderr });
    });
  });
}
