import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isProcessRunning } from "./process-liveness";

describe("isProcessRunning", () => {
  it("is true for this process and false for one that never existed", () => {
    expect(isProcessRunning(process.pid)).toBe(true);
    expect(isProcessRunning(2 ** 22 + 1)).toBe(false);
  });

  it("is false for a killed child not yet reaped (a zombie), which signal 0 still reaches", async () => {
    // A shell whose child is killed and never waited for: the child stays a zombie while the shell sleeps.
    const shell = spawn("sh", ["-c", "sleep 30 & echo $!; kill -9 $!; exec sleep 5"], { stdio: ["ignore", "pipe", "ignore"] });
    const zombie = Number(await new Promise<string>((resolve) => shell.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()))));
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(() => process.kill(zombie, 0)).not.toThrow();
      expect(isProcessRunning(zombie)).toBe(process.platform !== "linux");
    } finally {
      shell.kill("SIGKILL");
    }
  });
});
