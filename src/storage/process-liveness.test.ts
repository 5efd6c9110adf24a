import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isProcessRunning } from "./process-liveness";

describe("isProcessRunning", () => {
  it("is true for this process and false for one that never existed", () => {
    expect(isProcessRunning(process.pid)).toBe(true);
    expect(isProcessRunning(2 ** 22 + 1)).toBe(false);
  });

  it("is false for a killed child not yet reaped (a zombie), which signal 0 still reaches", async () => {
    // A shell that starts a child and then becomes `sleep`, which never waits for children: the
    // child, killed once the shell has become sleep, stays a zombie. (Killing it from the shell
    // itself let a loaded machine's shell reap it before its exec: ESRCH, now and then.)
    const shell = spawn("sh", ["-c", "sleep 30 & echo $!; exec sleep 5"], { stdio: ["ignore", "pipe", "ignore"] });
    const zombie = Number(await new Promise<string>((resolve) => shell.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()))));
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      process.kill(zombie, "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(() => process.kill(zombie, 0)).not.toThrow();
      expect(isProcessRunning(zombie)).toBe(process.platform !== "linux");
    } finally {
      shell.kill("SIGKILL");
    }
  });
});
