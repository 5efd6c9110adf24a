import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The architecture's arrows as a test: the allowed imports between folders, the "never" list, the
// exceptions and the client-safe folders are written once, in the ```arrows block of
// docs/architecture.md; this reads that block and every non-test import of the app's own code.

const ROOT = path.resolve(import.meta.dirname, "..");
const DOC = "docs/architecture.md";
const SCANNED = ["src", "app", "scripts", "proxy.ts", "server.mjs", "instrumentation.ts"];
const SOURCE_FILE = /\.(ts|tsx|mjs)$/;
const TEST_FILE = /\.test\.(tsx?|mjs)$/;

interface ArrowLine {
  from: string;
  to: string[];
}
interface NeverRule {
  from: string;
  to: string[];
  text: string;
  why: string;
}
interface Exception {
  from: string;
  to: string;
}
interface Arrows {
  lines: ArrowLine[];
  nevers: NeverRule[];
  exceptions: Exception[];
  clientSafe: string[];
}

/** One import in one file: `target` is the repository path it names, null for a package. */
interface ImportEdge {
  file: string;
  specifier: string;
  target: string | null;
}

function splitList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** The ```arrows block's lines, parsed; any line it does not understand is an error, not skipped. */
function parseArrows(markdown: string): Arrows {
  const block = /^```arrows\n([\s\S]*?)^```$/m.exec(markdown);
  if (!block) throw new Error(`${DOC} has no \`\`\`arrows block.`);
  const arrows: Arrows = { lines: [], nevers: [], exceptions: [], clientSafe: [] };
  for (const raw of block[1].split("\n")) {
    const line = raw.replace(/(^|\s)#.*$/, "").trim();
    if (line === "") continue;
    const never = /^never\s+(\S+)\s*→\s*([^:]+):\s*(.+)$/.exec(line);
    const exception = /^exception\s+(\S+)\s*→\s*(\S+):\s*.+$/.exec(line);
    const clientSafe = /^client-safe\s+(.+)$/.exec(line);
    const arrow = /^(\S+)\s*→(.*)$/.exec(line);
    if (never) {
      arrows.nevers.push({ from: never[1], to: splitList(never[2]), text: `never ${never[1]} → ${never[2].trim()}`, why: never[3] });
    } else if (exception) {
      arrows.exceptions.push({ from: exception[1], to: exception[2] });
    } else if (clientSafe) {
      arrows.clientSafe.push(...splitList(clientSafe[1]));
    } else if (arrow) {
      if (arrows.lines.some((known) => known.from === arrow[1])) throw new Error(`${DOC}: "${arrow[1]}" has two lines in the arrows block.`);
      arrows.lines.push({ from: arrow[1], to: splitList(arrow[2]) });
    } else {
      throw new Error(`${DOC}: the arrows block has a line it cannot read: "${raw}"`);
    }
  }
  return arrows;
}

function isPattern(name: string): boolean {
  return name === "*" || name.endsWith("/*");
}

function matches(pattern: string, folder: string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith("/*")) return folder.startsWith(pattern.slice(0, -1));
  return pattern === folder;
}

/** Every folder name the table uses (not the patterns), longest first so the closest one wins. */
function namedFolders(arrows: Arrows): string[] {
  const names = new Set<string>();
  for (const line of arrows.lines) for (const name of [line.from, ...line.to]) names.add(name);
  for (const rule of arrows.nevers) for (const name of [rule.from, ...rule.to]) names.add(name);
  for (const name of arrows.clientSafe) names.add(name);
  return [...names].filter((name) => !isPattern(name)).sort((a, b) => b.length - a.length);
}

/** The folder a repository path belongs to: the longest one the table names, else `src/<name>` or its first segment. */
function folderOf(filePath: string, named: readonly string[]): string {
  const closest = named.find((name) => filePath === name || filePath.startsWith(`${name}/`));
  if (closest) return closest;
  const segments = filePath.split("/");
  if (segments[0] === "src" && segments.length > 2) return `src/${segments[1]}`;
  return segments[0];
}

function withoutExtension(filePath: string): string {
  return filePath.replace(/\.(tsx?|mjs|js)$/, "").replace(/\/index$/, "");
}

/** The repository path an import names (`@/…` or relative), or null for a package. */
function resolveImport(file: string, specifier: string): string | null {
  if (specifier.startsWith("@/")) return path.posix.normalize(specifier.slice(2));
  if (specifier.startsWith(".")) return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  return null;
}

/** Every import of one file's text: static, `export … from`, dynamic `import()`, `import type`. */
function importsOf(file: string, text: string): ImportEdge[] {
  return ts.preProcessFile(text, true, true).importedFiles.map(({ fileName }) => ({ file, specifier: fileName, target: resolveImport(file, fileName) }));
}

function listSourceFiles(entry: string): string[] {
  const absolute = path.join(ROOT, entry);
  if (!fs.existsSync(absolute)) return [];
  if (fs.statSync(absolute).isFile()) return [entry];
  return fs
    .readdirSync(absolute, { recursive: true, encoding: "utf8" })
    .map((name) => path.posix.join(entry, name.split(path.sep).join("/")))
    .filter((name) => SOURCE_FILE.test(name) && !TEST_FILE.test(name) && fs.statSync(path.join(ROOT, name)).isFile());
}

function readAllImports(): ImportEdge[] {
  return SCANNED.flatMap(listSourceFiles).flatMap((file) => importsOf(file, fs.readFileSync(path.join(ROOT, file), "utf8")));
}

/** Every import that crosses folders against the table, named by file, import and rule. */
function findArrowViolations(arrows: Arrows, edges: readonly ImportEdge[]): string[] {
  const named = namedFolders(arrows);
  const violations: string[] = [];
  for (const edge of edges) {
    if (edge.target === null) continue;
    const from = folderOf(edge.file, named);
    const to = folderOf(edge.target, named);
    if (from === to) continue;
    const where = `${edge.file} imports "${edge.specifier}" (${from} → ${to})`;
    const isException = arrows.exceptions.some(
      (exception) => withoutExtension(exception.from) === withoutExtension(edge.file) && withoutExtension(exception.to) === withoutExtension(edge.target!),
    );
    if (isException) continue;
    const never = arrows.nevers.find((rule) => matches(rule.from, from) && rule.to.some((pattern) => matches(pattern, to)));
    if (never) {
      violations.push(`${where}: breaks "${never.text}" (${never.why})`);
    } else if (!arrows.lines.some((line) => line.from === from)) {
      violations.push(`${where}: ${from} has no line in ${DOC}'s arrows block`);
    } else if (!arrows.lines.some((line) => matches(line.from, from) && line.to.some((pattern) => matches(pattern, to)))) {
      const allowed = arrows.lines.filter((line) => matches(line.from, from)).flatMap((line) => line.to);
      violations.push(`${where}: not an arrow in ${DOC} (${from} may import ${allowed.join(", ") || "nothing"})`);
    }
  }
  return violations;
}

/** Imports of a client-safe folder that reach a server-side folder, `server-only` or a `node:` module. */
function findClientSafeViolations(arrows: Arrows, edges: readonly ImportEdge[]): string[] {
  const named = namedFolders(arrows);
  const isClientSafe = (folder: string) => arrows.clientSafe.includes(folder);
  const violations: string[] = [];
  for (const edge of edges) {
    const from = folderOf(edge.file, named);
    if (!isClientSafe(from)) continue;
    if (edge.target === null) {
      if (edge.specifier === "server-only" || edge.specifier.startsWith("node:")) {
        violations.push(`${edge.file} imports "${edge.specifier}": ${from} is client-safe (browser code imports it)`);
      }
    } else if (!isClientSafe(folderOf(edge.target, named))) {
      violations.push(`${edge.file} imports "${edge.specifier}": ${from} is client-safe and may import only ${arrows.clientSafe.join(", ")}`);
    }
  }
  return violations;
}

/** Each import cycle between folders of src/, as "a → b → a" with one import per step. */
function findFolderCycles(arrows: Arrows, edges: readonly ImportEdge[]): string[] {
  const named = namedFolders(arrows);
  const graph = new Map<string, Map<string, ImportEdge>>();
  for (const edge of edges) {
    if (edge.target === null) continue;
    const from = folderOf(edge.file, named);
    const to = folderOf(edge.target, named);
    if (from === to || !from.startsWith("src/") || !to.startsWith("src/")) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, edge);
  }
  // Folders that reach each other form one group; the shortest way round from each of them names
  // every pair that imports the other (audit ⇄ users and photos ⇄ tags may sit in one group).
  const cycles = new Map<string, string>();
  for (const group of stronglyConnectedFolders(graph).filter((members) => members.length > 1)) {
    for (const start of [...group].sort()) {
      const loop = shortestLoop(graph, group, start);
      const key = loop.slice(0, -1).map((folder, step) => `${folder}→${loop[step + 1]}`).sort().join(" ");
      if (!cycles.has(key)) cycles.set(key, describeLoop(graph, loop));
    }
  }
  return [...cycles.values()].sort();
}

/** Tarjan's strongly connected components: folders that reach each other, a cycle when more than one. */
function stronglyConnectedFolders(graph: ReadonlyMap<string, ReadonlyMap<string, ImportEdge>>): string[][] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (folder: string) => {
    index.set(folder, index.size);
    lowest.set(folder, index.get(folder)!);
    stack.push(folder);
    for (const next of graph.get(folder)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowest.set(folder, Math.min(lowest.get(folder)!, lowest.get(next)!));
      } else if (stack.includes(next)) {
        lowest.set(folder, Math.min(lowest.get(folder)!, index.get(next)!));
      }
    }
    if (lowest.get(folder) === index.get(folder)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        group.push(member);
      } while (member !== folder);
      groups.push(group);
    }
  };
  for (const folder of graph.keys()) if (!index.has(folder)) visit(folder);
  return groups;
}

/** The shortest way from `start` back to itself inside one group: [start, …, start]. */
function shortestLoop(graph: ReadonlyMap<string, ReadonlyMap<string, ImportEdge>>, group: readonly string[], start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  let last: string | null = null;
  while (queue.length > 0 && last === null) {
    const folder = queue.shift()!;
    for (const next of graph.get(folder)?.keys() ?? []) {
      if (!group.includes(next)) continue;
      if (next === start) {
        last = folder;
        break;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, folder);
        queue.push(next);
      }
    }
  }
  const loop = [start];
  for (let folder = last!; folder !== start; folder = cameFrom.get(folder)!) loop.splice(1, 0, folder);
  loop.push(start);
  return loop;
}

/** "a → b → a (one import behind each step)". */
function describeLoop(graph: ReadonlyMap<string, ReadonlyMap<string, ImportEdge>>, loop: readonly string[]): string {
  const steps = loop.slice(0, -1).map((folder, step) => {
    const example = graph.get(folder)!.get(loop[step + 1])!;
    return `${example.file} imports "${example.specifier}"`;
  });
  return `${loop.join(" → ")} (${steps.join("; ")})`;
}

function edgesOfTable(arrows: Arrows): ImportEdge[] {
  // The table's own arrows between named folders of src/, as if each were an import.
  return arrows.lines
    .filter((line) => line.from.startsWith("src/") && !isPattern(line.from))
    .flatMap((line) =>
      line.to.filter((to) => to.startsWith("src/") && !isPattern(to)).map((to) => ({ file: `${line.from}/(table)`, specifier: to, target: `${to}/(table)` })),
    );
}

const arrows = parseArrows(fs.readFileSync(path.join(ROOT, DOC), "utf8"));

describe("the arrows block of docs/architecture.md", () => {
  it("has a line for every folder of src/ and names only folders that exist", () => {
    const folders = fs
      .readdirSync(path.join(ROOT, "src"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `src/${entry.name}`);
    expect(folders.filter((folder) => !arrows.lines.some((line) => line.from === folder))).toEqual([]);
    expect(namedFolders(arrows).filter((name) => !fs.existsSync(path.join(ROOT, name)))).toEqual([]);
    for (const exception of arrows.exceptions) {
      expect(fs.existsSync(path.join(ROOT, exception.from)), exception.from).toBe(true);
      expect(fs.existsSync(path.join(ROOT, exception.to)), exception.to).toBe(true);
    }
  });

  it("points one way: its arrows between folders of src/ close no cycle", () => {
    expect(findFolderCycles(arrows, edgesOfTable(arrows))).toEqual([]);
  });
});

describe("the imports of src/, app/, scripts/ and the entry files", () => {
  const edges = readAllImports();

  it("are read (a guard against a scan that finds nothing and passes)", () => {
    expect(edges.filter((edge) => edge.target?.startsWith("src/photos/")).length).toBeGreaterThan(100);
    expect(edges.some((edge) => edge.file === "instrumentation.ts" && edge.specifier === "./src/server/boot")).toBe(true);
  });

  it("follow the arrows, the never list and the exceptions", () => {
    expect(findArrowViolations(arrows, edges)).toEqual([]);
  });

  it("close no cycle between folders of src/", () => {
    expect(findFolderCycles(arrows, edges)).toEqual([]);
  });

  it("keep the client-safe folders free of server code", () => {
    expect(findClientSafeViolations(arrows, edges)).toEqual([]);
  });
});

describe("the checks themselves (each must be able to fail)", () => {
  const edge = (file: string, specifier: string): ImportEdge => ({ file, specifier, target: resolveImport(file, specifier) });

  it("name the file, the import and the never rule it breaks", () => {
    expect(findArrowViolations(arrows, [edge("src/photos/components/photo-editor.tsx", "@/src/tags/components/tag-input")])).toEqual([
      expect.stringMatching(/^src\/photos\/components\/photo-editor\.tsx imports "@\/src\/tags\/components\/tag-input" \(src\/photos → src\/tags\): breaks "never src\/photos → src\/tags"/),
    ]);
    expect(findArrowViolations(arrows, [edge("src/users/users.service.ts", "../../app/admin/users/page")])).toEqual([expect.stringContaining('breaks "never src/* → app"')]);
  });

  it("refuse an arrow the table does not list, and a folder it does not know", () => {
    expect(findArrowViolations(arrows, [edge("src/media/serve-media.ts", "@/src/photos/servable-variant")])).toEqual([
      expect.stringContaining("(src/media → src/photos): not an arrow in docs/architecture.md (src/media may import src/errors"),
    ]);
    expect(findArrowViolations(arrows, [edge("src/brand-new/thing.ts", "@/src/photos/photos.service")])).toEqual([
      expect.stringContaining("src/brand-new has no line"),
    ]);
  });

  it("let an exception through only from its own file", () => {
    expect(findArrowViolations(arrows, [edge("src/uploads/tus-server.ts", "@/src/http/error-response")])).toEqual([]);
    expect(findArrowViolations(arrows, [edge("src/uploads/upload.service.ts", "@/src/http/error-response")])).toEqual([
      expect.stringContaining('breaks "never src/* → src/http"'),
    ]);
  });

  it("find a cycle between folders and name an import on each step", () => {
    const cycle = [edge("src/audit/audit.service.ts", "@/src/users/users.repository"), edge("src/users/users.service.ts", "@/src/audit/audit.repository")];
    expect(findFolderCycles(arrows, cycle)).toEqual([
      'src/audit → src/users → src/audit (src/audit/audit.service.ts imports "@/src/users/users.repository"; src/users/users.service.ts imports "@/src/audit/audit.repository")',
    ]);
  });

  it("keep server code out of a client-safe folder", () => {
    expect(findClientSafeViolations(arrows, [edge("src/access/viewer.ts", "server-only"), edge("src/access/viewer.ts", "@/src/db/client")])).toHaveLength(2);
    expect(findClientSafeViolations(arrows, [edge("src/access/viewer.ts", "@/src/errors/app-error")])).toEqual([]);
  });
});
