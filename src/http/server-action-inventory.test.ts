import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { hasRole, type Role } from "@/src/access/roles";
import { findGuardRule } from "@/src/auth/guard-rules";
import { isDefinedServerAction } from "./server-action";

const ROOT = path.resolve(import.meta.dirname, "../..");

// A "use server" directive alone on its line: at the top of a module (every export is an action)
// or at the top of a function body (that one function is an action).
const USE_SERVER_LINE = /^\s*(["'])use server\1;?\s*$/gm;
// The same, as the module's first statement (after comments).
const USE_SERVER_MODULE = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(["'])use server\1/;

/** Every source file (not a test) under app/ and src/, as a path from the project root. */
function listSourceFiles(): string[] {
  return ["app", "src"]
    .flatMap((folder) => fs.readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

const sources = listSourceFiles().map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), "utf8") }));
const actionModules = sources.filter(({ text }) => USE_SERVER_MODULE.test(text)).map(({ file }) => file);

describe("every server action goes through defineServerAction (SECURITY.md 53, 62)", () => {
  it("finds the action modules (the walk itself works)", () => {
    expect(actionModules).toContain("app/(gallery)/gallery-actions.tsx");
    expect(actionModules).toContain("app/(gallery)/p/[id]/viewer-neighbours.action.ts");
    expect(actionModules.length).toBeGreaterThanOrEqual(6);
  });

  // The first import loads the services and the database client behind the actions: seconds on a
  // busy machine, more than one test's default timeout.
  const loaded = new Map<string, Record<string, unknown>>();
  beforeAll(async () => {
    for (const file of actionModules) loaded.set(file, (await import(path.join(ROOT, file))) as Record<string, unknown>);
  }, 120_000);

  it.each(actionModules)("%s exports only wrapped actions", (file) => {
    const exports = Object.entries(loaded.get(file) ?? {});
    expect(exports.length, "an action module exports at least one action").toBeGreaterThan(0);
    const bypassing = exports.filter(([, value]) => !isDefinedServerAction(value)).map(([name]) => name);
    expect(bypassing).toEqual([]);
  });

  it("no action is declared inline, inside a function (it could not be wrapped)", () => {
    const inline = sources.filter(({ text }) => (text.match(USE_SERVER_LINE) ?? []).length > (USE_SERVER_MODULE.test(text) ? 1 : 0)).map(({ file }) => file);
    expect(inline).toEqual([]);
  });
});

/** A page file's address, with each dynamic segment filled in and route groups left out. */
function pageAddress(file: string): string {
  const segments = path.dirname(file).split("/").slice(1);
  const address = segments.filter((segment) => !/^\(.*\)$/.test(segment)).map((segment) => (segment.startsWith("[") ? "x" : segment));
  return `/${address.join("/")}`;
}

const pages = sources.filter(({ file }) => file.startsWith("app/") && file.endsWith("/page.tsx"));
const guardedPages = pages.flatMap(({ file, text }) => {
  const rule = findGuardRule(pageAddress(file));
  return rule?.kind === "page" ? [{ file, text, role: rule.role }] : [];
});

describe("every page the interceptor guards checks its user again with requirePageUser", () => {
  it("finds the guarded pages (the walk itself works)", () => {
    expect(guardedPages.map(({ file }) => file)).toContain("app/admin/users/page.tsx");
    expect(guardedPages.find(({ file }) => file === "app/admin/users/page.tsx")?.role).toBe("admin");
    expect(guardedPages.length).toBeGreaterThan(10);
  });

  it.each(guardedPages.map(({ file, text, role }) => [file, role, text] as const))("%s requires at least the role %s", (_file, role, text) => {
    const required = [...text.matchAll(/requirePageUser\(\s*"(\w+)"/g)].map((match) => match[1] as Role);
    expect(required.length, "the page calls requirePageUser").toBeGreaterThan(0);
    expect(required.every((found) => hasRole(found, role))).toBe(true);
  });
});
