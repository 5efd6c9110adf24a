#!/usr/bin/env node
// `npx contact-sheet <command>`: the command-line tool. Its commands are TypeScript modules in
// src/cli, so this starts them through tsx with the react-server condition, exactly as the worker and
// the migrations run (architecture.md, "Scripts outside Next.js"): that condition loads `server-only`
// as an empty module for the commands that run on the server. The exit code and signals pass through.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsxLoader = createRequire(import.meta.url).resolve("tsx");
const child = spawn(
  process.execPath,
  // A young generation of 2 MB (V8's default grows to 16): the import reads a state of 100,000 lines
  // into a few MB, and with the default each line's short-lived text kept ~25 MB more resident (measured).
  ["--max-semi-space-size=2", "--conditions=react-server", "--import", tsxLoader, path.join(projectRoot, "src/cli/main.ts"), ...process.argv.slice(2)],
  // tsx finds the `@/` paths through the project's tsconfig, not the one of wherever the command is run from.
  { stdio: "inherit", env: { ...process.env, TSX_TSCONFIG_PATH: path.join(projectRoot, "tsconfig.json") } },
);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
