// One child process of a test runner (scripts/test-all.mjs, scripts/test-integration.mjs): printed as
// it goes when it runs alone, held and printed whole when it ends when it runs beside others, so
// two children's lines never interleave. Answers its exit code and how long it took.
import { spawn } from "node:child_process";

export function runChild(command, args, { cwd, env = process.env, streamed, onEnd = () => {} }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: streamed ? "inherit" : ["ignore", "pipe", "pipe"] });
    const held = [];
    child.stdout?.on("data", (chunk) => held.push(chunk));
    child.stderr?.on("data", (chunk) => held.push(chunk));
    child.on("close", (code, signal) => {
      onEnd();
      if (!streamed) process.stdout.write(Buffer.concat(held));
      resolve({ code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000 });
    });
  });
}
