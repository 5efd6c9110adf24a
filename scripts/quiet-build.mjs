// The build step of `npm start`, with Next.js's own report (its experimental flags, a table of
// every route) held back: it means nothing to someone starting their gallery. A person sees one
// line on success and the whole report when the build fails.
import { spawnSync } from "node:child_process";

/**
 * Runs `command args` in `cwd`, printing "Building…" and then "Built in N s." or, on failure, the
 * command's whole output and what failed.
 * @returns the command's exit status (0 when built)
 */
export function buildQuietly(command, args, { cwd, out = process.stdout, err = process.stderr } = {}) {
  out.write("Building Contact Sheet (about a minute the first time; `npm run build` shows the details)…\n");
  const started = performance.now();
  const build = spawnSync(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  if (build.status !== 0) {
    out.write(build.stdout ?? "");
    err.write(build.stderr ?? "");
    err.write(`The build failed${build.error ? ` (${build.error.message})` : ""}: its report is above.\n`);
    return build.status ?? 1;
  }
  out.write(`Built in ${Math.round((performance.now() - started) / 1000)} s.\n`);
  return 0;
}
