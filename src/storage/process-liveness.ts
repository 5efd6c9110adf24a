import fs from "node:fs";

/**
 * Whether a process on this host still runs: the writer of a temporary file (temporary-files.ts)
 * or the holder of a backup folder's lock. A process that was killed stays in the process table as
 * a zombie until its parent reaps it, and when the parent died with it (a process group killed
 * together), until PID 1 does, which in a container may be never: signal 0 still reaches a zombie,
 * so on Linux its state in /proc decides.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    // "pid (name) state ...": the name may hold spaces and parentheses, so read after the last ")".
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.charAt(stat.lastIndexOf(")") + 2);
    return state !== "Z" && state !== "X";
  } catch {
    // No /proc (not Linux), or it ended in between: signal 0 reached it, so trust that.
    return true;
  }
}
