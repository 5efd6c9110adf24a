import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { loadApiRoutes } from "@/app/api-routes";
import { findHandlerDescription, type HandlerContract } from "./handler-contract";

// The route contracts (the Zod schemas each API route declares, from which the OpenAPI document is
// made) are the one description of what the API takes and answers. This file holds two kinds of
// code to them: the browser's (it reads answers through the contracts, never a hand-made copy or
// an unchecked cast) and the routes' text fields (cleaned by src/validation/input-text.ts).

const ROOT = path.resolve(import.meta.dirname, "../..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Every documented handler's contract, with where it is (`PATCH app/api/photos/[id]/route.ts`). */
async function loadContracts(): Promise<Array<{ where: string; contract: HandlerContract }>> {
  const contracts: Array<{ where: string; contract: HandlerContract }> = [];
  for (const route of await loadApiRoutes()) {
    for (const method of METHODS) {
      const description = findHandlerDescription(route.exports[method]);
      if (description?.kind === "handler") contracts.push({ where: `${method} ${route.file}`, contract: description.contract });
    }
  }
  return contracts;
}

/** Every object schema inside a schema (through optional, nullable, default, arrays, unions, pipes), with its path. */
function objectSchemas(schema: z.ZodType, at = ""): Array<{ at: string; shape: Record<string, z.ZodType> }> {
  const def = (schema as unknown as { def: Record<string, unknown> & { type: string } }).def;
  switch (def.type) {
    case "object": {
      const shape = (schema as unknown as { shape: Record<string, z.ZodType> }).shape;
      return [{ at, shape }, ...Object.entries(shape).flatMap(([key, field]) => objectSchemas(field, `${at}.${key}`))];
    }
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
      return objectSchemas(def.innerType as z.ZodType, at);
    case "array":
      return objectSchemas(def.element as z.ZodType, `${at}[]`);
    case "union":
      return (def.options as z.ZodType[]).flatMap((option) => objectSchemas(option, at));
    case "intersection":
      return [...objectSchemas(def.left as z.ZodType, at), ...objectSchemas(def.right as z.ZodType, at)];
    case "pipe":
      return [...objectSchemas(def.in as z.ZodType, at), ...objectSchemas(def.out as z.ZodType, at)];
    default:
      return [];
  }
}

const contractsLoaded = loadContracts();
let contracts: Awaited<typeof contractsLoaded> = [];
// The first import loads every route, the services and the database client behind them: seconds
// on a busy machine, more than one test's default timeout.
beforeAll(async () => {
  contracts = await contractsLoaded;
}, 120_000);

// ---- The browser reads answers through the contracts ----------------------------------------

/** The one module that reads an answer's body and checks it (src/ui/api-client.ts). */
const ANSWER_READER = "src/ui/api-client.ts";


interface SourceFile {
  file: string;
  source: ts.SourceFile;
}

function readSource(file: string): SourceFile {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  return { file, source: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS) };
}

function listSourceFiles(): string[] {
  return ["app", "src"]
    .flatMap((folder) => fs.readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts"))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    const full = path.join(ROOT, candidate);
    if (fs.existsSync(full) && fs.statSync(full).isFile()) return candidate;
  }
  return null;
}

/** What a module imports for its values (type-only imports are erased and bring no code along). */
function valueImports({ file, source }: SourceFile): string[] {
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const onlyTypes =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      if (!onlyTypes) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && !node.isTypeOnly) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.map((specifier) => resolveImport(file, specifier)).filter((found): found is string => found !== null);
}

const USE_CLIENT = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(["'])use client\1/;

/** Browser code: every "use client" module and every module they import for values, transitively. */
function listClientFiles(): SourceFile[] {
  const all = listSourceFiles();
  const pending = all.filter((file) => USE_CLIENT.test(fs.readFileSync(path.join(ROOT, file), "utf8")));
  const found = new Map<string, SourceFile>();
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (found.has(file)) continue;
    const source = readSource(file);
    found.set(file, source);
    pending.push(...valueImports(source));
  }
  return [...found.values()].sort((left, right) => left.file.localeCompare(right.file));
}

function lineOf(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

const READERS = new Set(["callApi", "readAnswer", "parseAnswerText"]);

function calledName(node: ts.Node): string | null {
  if (!ts.isCallExpression(node)) return null;
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return `${ts.isIdentifier(callee.expression) ? callee.expression.text : "…"}.${callee.name.text}`;
  return null;
}

function unwrap(node: ts.Expression): ts.Expression {
  let current = node;
  while (ts.isParenthesizedExpression(current) || ts.isAwaitExpression(current)) current = current.expression;
  return current;
}

/**
 * Where a browser file reads or casts an answer by itself, as "file:line: what". `.json()` and
 * `JSON.parse` belong to the reader alone; a reader called with a type argument, or an answer cast
 * with `as`, names the answer's type by hand instead of the contract's schema checking it.
 */
export function findUncheckedAnswers({ file, source }: SourceFile): string[] {
  if (file === ANSWER_READER) return [];
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const name = calledName(node);
    if (name?.endsWith(".json") && ts.isCallExpression(node) && node.arguments.length === 0) {
      found.push(`${file}:${lineOf(source, node)}: reads an answer with .json(); use callApi or readAnswer (${ANSWER_READER}) with the route's schema`);
    } else if (name === "JSON.parse") {
      found.push(`${file}:${lineOf(source, node)}: parses an answer with JSON.parse; use parseAnswerText (${ANSWER_READER}) with the route's schema`);
    } else if (name !== null && READERS.has(name) && ts.isCallExpression(node) && node.typeArguments !== undefined) {
      found.push(`${file}:${lineOf(source, node)}: ${name}<…> names the answer's type by hand; pass the route's schema (or an answerShape) instead`);
    }
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.kind !== ts.SyntaxKind.ConstKeyword) {
      const cast = calledName(unwrap(node.expression));
      if (cast !== null && (READERS.has(cast) || cast.endsWith(".json") || cast === "JSON.parse" || cast === "fetch")) {
        found.push(`${file}:${lineOf(source, node)}: casts an answer with "as"; let the route's schema check it`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The property names of each interface and object-literal type alias a file declares, with their lines. */
function declaredObjectTypes({ source }: SourceFile): Array<{ name: string; line: number; keys: string[] }> {
  const declared: Array<{ name: string; line: number; keys: string[] }> = [];
  const keysOf = (members: ts.NodeArray<ts.TypeElement>) =>
    members.filter(ts.isPropertySignature).map((member) => (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) ? member.name.text : "")).filter(Boolean);
  const visit = (node: ts.Node) => {
    if (ts.isInterfaceDeclaration(node) && node.heritageClauses === undefined) declared.push({ name: node.name.text, line: lineOf(source, node), keys: keysOf(node.members) });
    if (ts.isTypeAliasDeclaration(node) && ts.isTypeLiteralNode(node.type)) declared.push({ name: node.name.text, line: lineOf(source, node), keys: keysOf(node.type.members) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return declared;
}

/** Types a `schemaMatches<z.output<typeof schema>, Type>(true)` ties to a schema: checked copies, not drifting ones. */
function typesTiedToSchemas(): Set<string> {
  const tied = new Set<string>();
  for (const file of listSourceFiles()) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    for (const match of text.matchAll(/schemaMatches<([\s\S]*?)>\(true\)/g)) {
      const returned = match[1].split(",").at(-1) ?? "";
      for (const name of returned.match(/\b[A-Z]\w*\b/g) ?? []) tied.add(name);
    }
  }
  return tied;
}

/**
 * Where a browser file declares its own copy of an answer type, as "file:line: what": an object
 * type with exactly the properties of an object the route contracts answer (a page, an item, a
 * variant), not tied to that schema by schemaMatches. (A narrower type, such as the few fields a
 * function needs, is no copy: TypeScript checks the contract's answer against it where it is used.)
 */
export function findAnswerCopies(file: SourceFile, answers: Array<{ where: string; keys: Set<string> }>, tied: Set<string>): string[] {
  return declaredObjectTypes(file)
    .filter((type) => type.keys.length >= 2 && !tied.has(type.name))
    .flatMap((type) => {
      const copied = answers.find((answer) => answer.keys.size === type.keys.length && type.keys.every((key) => answer.keys.has(key)));
      return copied ? [`${file.file}:${type.line}: ${type.name} { ${type.keys.join(", ")} } copies an answer of ${copied.where}; use the contract's type (z.output of its schema)`] : [];
    });
}

/** Whether a type is the contract's: `z.output<…>` or `z.infer<…>` of a schema, indexed or not. */
function isContractTypeText(text: string): boolean {
  return /^z\.(output|infer)<typeof [\w.]+>(\[[^\]]+\])*$/.test(text.replace(/\s+/g, " ").replace(/\[ /g, "[").replace(/ \]/g, "]"));
}

/**
 * Where a public page's `answerShape<Answer>` (which trusts its type argument below the outline it
 * checks) is given a type that is not the contract's: it must be `z.output<typeof schema>` (or
 * `z.infer`), an alias of one in the same file, or a type imported from a `*.schemas` module.
 */
export function findUntypedShapes({ file, source }: SourceFile): string[] {
  const contractNames = new Set<string>();
  const visitDeclarations = (node: ts.Node) => {
    if (ts.isTypeAliasDeclaration(node) && isContractTypeText(node.type.getText(source))) contractNames.add(node.name.text);
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && /\.schemas$/.test(node.moduleSpecifier.text)) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) contractNames.add(element.name.text);
    }
    ts.forEachChild(node, visitDeclarations);
  };
  visitDeclarations(source);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (calledName(node) === "answerShape" && ts.isCallExpression(node)) {
      const [argument] = node.typeArguments ?? [];
      const text = argument?.getText(source) ?? "";
      const isContract = argument !== undefined && (isContractTypeText(text) || (ts.isTypeReferenceNode(argument) && contractNames.has(argument.typeName.getText(source))));
      if (!isContract) found.push(`${file}:${lineOf(source, node)}: answerShape<${text}> is not the contract's type; use z.output<typeof …> of the route's schema`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("browser code reads API answers through the route contracts (issue 26)", () => {
  const clientFiles = listClientFiles();
  const tied = typesTiedToSchemas();
  const problemsOf = (file: SourceFile) => [...findUncheckedAnswers(file), ...findUntypedShapes(file), ...findAnswerCopies(file, answerObjects(), tied)];
  let answers: Array<{ where: string; keys: Set<string> }> | null = null;
  function answerObjects() {
    answers ??= contracts.flatMap(({ where, contract }) =>
      contract.response.schema ? objectSchemas(contract.response.schema).map(({ at, shape }) => ({ where: `${where} (answer${at})`, keys: new Set(Object.keys(shape)) })) : [],
    );
    return answers;
  }

  it("finds the browser code (the walk itself works)", () => {
    const files = clientFiles.map(({ file }) => file);
    expect(files).toContain("src/search/components/search-box.tsx");
    // Reached only through imports, not marked "use client" itself.
    expect(files).toContain("src/uploads/components/upload-answers.ts");
    expect(files).toContain(ANSWER_READER);
    expect(answerObjects().length).toBeGreaterThan(50);
  });

  it("catches what it is meant to catch (a cast, a typed reader, a hand-typed shape, a copied answer type)", () => {
    const sample = {
      file: "sample.tsx",
      source: ts.createSourceFile(
        "sample.tsx",
        [
          "const page = (await response.json()) as Page;",
          "const tags = await callApi<{ tags: Tag[] }>(path, init);",
          "interface Variant { format: string; width: number; height: number; url: string }",
          "const parsed = JSON.parse(text);",
          "type Answer = z.output<typeof answerSchema>;",
          "const fine = answerShape<Answer>((a) => true);",
          "const alsoFine = answerShape<z.output<typeof answerSchema>[\"items\"][number]>((a) => true);",
          "const handTyped = answerShape<{ tags: string[] }>((a) => true);",
        ].join("\n"),
        ts.ScriptTarget.Latest,
        true,
        ts.ScriptKind.TSX,
      ),
    };
    const answersHere = [{ where: "GET /x", keys: new Set(["format", "width", "height", "url"]) }];
    expect([...findUncheckedAnswers(sample), ...findUntypedShapes(sample), ...findAnswerCopies(sample, answersHere, new Set())]).toEqual([
      "sample.tsx:1: casts an answer with \"as\"; let the route's schema check it",
      "sample.tsx:1: reads an answer with .json(); use callApi or readAnswer (src/ui/api-client.ts) with the route's schema",
      "sample.tsx:2: callApi<…> names the answer's type by hand; pass the route's schema (or an answerShape) instead",
      "sample.tsx:4: parses an answer with JSON.parse; use parseAnswerText (src/ui/api-client.ts) with the route's schema",
      "sample.tsx:8: answerShape<{ tags: string[] }> is not the contract's type; use z.output<typeof …> of the route's schema",
      "sample.tsx:3: Variant { format, width, height, url } copies an answer of GET /x; use the contract's type (z.output of its schema)",
    ]);
  });

  it("no browser file reads, casts or re-types an answer by itself", () => {
    const problems = clientFiles.flatMap(problemsOf);
    expect(problems).toEqual([]);
  });
});

// ---- Text fields are cleaned by the one module ------------------------------------------------

/** The request fields that carry a person's text: titles, captions, names, descriptions, messages. */
const TEXT_FIELD = /^(title|caption|altText|name|description|message|comment|siteTitle|siteDescription)$/;

/**
 * Text fields a route takes that are cleaned elsewhere, on purpose. A tag's name has its own rule in
 * src/tags/tag-name.ts (control characters become spaces, white space collapsed, NFC), applied by
 * the service so every caller gets it.
 */
const CLEANED_ELSEWHERE = new Set(["PATCH app/api/tags/[id]/route.ts .name"]);

describe("every title, caption, name and description a route takes is cleaned by src/validation/input-text.ts", () => {
  function textFields() {
    return contracts.flatMap(({ where, contract }) =>
      contract.body
        ? objectSchemas(contract.body).flatMap(({ at, shape }) =>
            Object.entries(shape)
              .filter(([key]) => TEXT_FIELD.test(key))
              .map(([key, field]) => ({ field: `${where} ${at}.${key}`, schema: field })),
          )
        : [],
    );
  }

  it("finds the text fields (the walk itself works)", () => {
    const fields = textFields().map(({ field }) => field);
    expect(fields).toContain("PATCH app/api/photos/[id]/route.ts .caption");
    expect(fields).toContain("PATCH app/api/admin/settings/route.ts .siteTitle");
    expect(fields).toContain("POST app/api/tokens/route.ts .name");
    expect(fields.length).toBeGreaterThanOrEqual(15);
  });

  it("each one drops control characters and trims", () => {
    const uncleaned = textFields()
      .filter(({ field }) => !CLEANED_ELSEWHERE.has(field))
      .filter(({ schema }) => {
        const result = schema.safeParse("  Sunset\u0007 over\u0000 the\u001b sea\r  ");
        return !result.success || result.data !== "Sunset over the sea";
      })
      .map(({ field }) => field);
    expect(uncleaned).toEqual([]);
  });
});
