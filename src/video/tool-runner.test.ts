import { describe, expect, it } from "vitest";
import { runTool, ToolFailedError, ToolLimitError, ToolMissingError } from "./tool-runner";

describe("runTool", () => {
  it("kills a run that passes its time limit, at once", async () => {
    const started = Date.now();
    const run = runTool("/bin/sh", ["-c", "exec sleep 60"], { timeoutMs: 300, maxStdoutBytes: 1024 });
    await expect(run).rejects.toBeInstanceOf(ToolLimitError);
    await run.catch((error: Error) => expect(error.message).toMatch(/took longer than/));
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("leaves no process behind after a timeout", async () => {
    // A length no other process uses, to find it in the process list.
    const marker = `61.${String(Date.now() % 1_000_000).padStart(6, "0")}`;
    await expect(runTool("/bin/sleep", [marker], { timeoutMs: 200, maxStdoutBytes: 1024 })).rejects.toBeInstanceOf(ToolLimitError);
    const { stdout } = await runTool("/bin/ps", ["-eo", "pid,args"], { timeoutMs: 5000, maxStdoutBytes: 4 * 1024 * 1024 });
    expect(stdout.toString().split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"))).toEqual([]);
  });

  it("kills a run that prints more than its output limit", async () => {
    await expect(runTool("/bin/sh", ["-c", "exec yes"], { timeoutMs: 10_000, maxStdoutBytes: 64 * 1024 })).rejects.toThrow(/printed more than/);
  });

  it("tells a missing program from a failing one", async () => {
    await expect(runTool("/nonexistent/ffmpeg", [], { timeoutMs: 1000, maxStdoutBytes: 1024 })).rejects.toBeInstanceOf(ToolMissingError);
    const failing = runTool("/bin/sh", ["-c", "echo broken >&2; exit 3"], { timeoutMs: 1000, maxStdoutBytes: 1024 });
    await expect(failing).rejects.toBeInstanceOf(ToolFailedError);
    await failing.catch((error: ToolFailedError) => expect(error.stderr).toBe("broken"));
  });

  it("answers what the program printed", async () => {
    const { stdout } = await runTool("/bin/sh", ["-c", "printf hello"], { timeoutMs: 1000, maxStdoutBytes: 1024 });
    expect(stdout.toString()).toBe("hello");
  });
});
