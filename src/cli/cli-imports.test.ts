// `contact-sheet import` runs on a laptop against a site elsewhere: what it loads must not reach the
// server's modules (database drivers, sharp, the services), which would need the server's setup and
// slow every start. Server commands load theirs with import() when they run (src/cli/load-server.ts).
// This walks the static, non-type imports from the command's entry point and fails naming the chain.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SERVER_PACKAGES = new Set(["server-only", "better-sqlite3", "pg", "kysely", "sharp", "@node-rs/argon2", "next", "next-auth"]);

function resolveModule(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/") ? path.join(ROOT, specifier.slice(2)) : specifier.startsWith(".") ? path.resolve(path.dirname(from), specifier) : null;
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  throw new Error(`${from}: cannot resolve ${specifier}`);
}

/** Static imports that load code: not `import type`, not dynamic import(). */
function staticImports(source: string): string[] {
  const specifiers: string[] = [];
  for (const match of source.matchAll(/^(?:import|export)\s+(?!type\s)(?:[\s\S]*?\sfrom\s+)?"([^"]+)";/gm)) specifiers.push(match[1]);
  return specifiers;
}

function serverReach(entry: string): string[] | null {
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]): string[] | null => {
    if (seen.has(file)) return null;
    seen.add(file);
    for (const specifier of staticImports(fs.readFileSync(file, "utf8"))) {
      const packageName = specifier.startsWith("@") && !specifier.startsWith("@/") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
      if (SERVER_PACKAGES.has(packageName)) return [...chain, specifier];
      const next = resolveModule(file, specifier);
      if (next) {
        const found = walk(next, [...chain, path.relative(ROOT, next)]);
        if (found) return found;
      }
    }
    return null;
  };
  return walk(entry, [path.relative(ROOT, entry)]);
}

describe("what the contact-sheet command loads before a server command runs", () => {
  it("reaches no server module from src/cli/main.ts (so import runs on a laptop)", () => {
    expect(serverReach(path.join(ROOT, "src/cli/main.ts"))).toBeNull();
  });

  it("would notice a service imported statically", () => {
    expect(serverReach(path.join(ROOT, "src/cli/server-database.ts"))).not.toBeNull();
  });
});
