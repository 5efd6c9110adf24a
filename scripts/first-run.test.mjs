// Issue 27's first run, as a newcomer meets it: `npm start`'s first build prints one calm line
// (Next.js's report only when the build fails), the build spends no time on a type check that
// `npm test` runs anyway, and the README names what compiling better-sqlite3 needs.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import nextConfig from "../next.config";
import { buildQuietly } from "./quiet-build.mjs";

const root = path.resolve(import.meta.dirname, "..");

/** What buildQuietly prints for a stand-in build that writes `script`'s output. */
function runStandIn(script) {
  const printed = [];
  const sink = { write: (text) => printed.push(String(text)) };
  const status = buildQuietly(process.execPath, ["-e", script], { cwd: root, out: sink, err: sink });
  return { status, output: printed.join("") };
}

const NEXT_REPORT = "console.log('   ▲ Next.js 16\\n - Experiments (use with caution):\\n   ✓ authInterrupts\\nRoute (app)\\n┌ ƒ /');";

describe("the first npm start", () => {
  it("says it is building and how long it took, without Next.js's report", () => {
    const { status, output } = runStandIn(NEXT_REPORT);
    expect(status).toBe(0);
    expect(output).toMatch(/^Building Contact Sheet .*\nBuilt in \d+ s\.\n$/u);
    expect(output).not.toContain("Experiments");
    expect(output).not.toContain("Route (app)");
  });

  it("prints the whole report and its exit status when the build fails", () => {
    const { status, output } = runStandIn(`${NEXT_REPORT} console.error('Type error: nope'); process.exit(3);`);
    expect(status).toBe(3);
    expect(output).toContain("Experiments (use with caution)");
    expect(output).toContain("Type error: nope");
    expect(output).toContain("The build failed: its report is above.");
  });

  it("builds without a type check, which npm test's typecheck phase runs instead", () => {
    expect(nextConfig.typescript?.ignoreBuildErrors).toBe(true);
    const scripts = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts;
    expect(scripts.typecheck).toMatch(/\btsc --noEmit\b/);
    expect(fs.readFileSync(path.join(root, "scripts", "test-all.mjs"), "utf8")).toContain("typecheck");
  });

  it("the README says what compiling better-sqlite3 needs when no prebuilt binary can be fetched", () => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    const paragraph = readme.split(/\n\s*\n/).find((each) => each.includes("better-sqlite3")) ?? "";
    for (const tool of ["python3", "make", "C++ compiler"]) expect(paragraph).toContain(tool);
  });
});
