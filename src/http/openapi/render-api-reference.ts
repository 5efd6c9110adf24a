import type { OpenApiDocument } from "./build-openapi-document";
import type { JsonSchema } from "./json-schema";

// The API reference at /api/docs: one HTML page built on the server from the OpenAPI document,
// with no script and nothing fetched from elsewhere, so it works on a site with no internet.
// The look follows app/globals.css (same palette, type and spacing), inlined because a route
// handler's answer does not get the app's stylesheet.

type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }>;
  requestBody?: { description?: string; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }>; headers?: Record<string, { description?: string }> }>;
};

const METHOD_ORDER = ["get", "head", "post", "put", "patch", "delete", "options"];

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** `code` and **strong**, on escaped text: all the markup the document's descriptions use inline. */
function renderInline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
}

/** Paragraphs, "- " lists and "|" tables: the little Markdown the descriptions hold. */
function renderMarkdown(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block.split("\n").filter((line) => line.trim() !== "");
      if (lines.every((line) => line.startsWith("- "))) return `<ul>${lines.map((line) => `<li>${renderInline(line.slice(2))}</li>`).join("")}</ul>`;
      if (lines.every((line) => line.startsWith("|"))) {
        const rows = lines.filter((line) => !/^\|[-| ]+\|$/.test(line)).map((line) => line.slice(1, -1).split("|").map((cell) => cell.trim()));
        const [head, ...body] = rows;
        return `<div class="table-scroll"><table class="table"><thead><tr>${head.map((cell) => `<th>${renderInline(cell)}</th>`).join("")}</tr></thead><tbody>${body
          .map((row) => `<tr>${row.map((cell) => `<td>${renderInline(cell)}</td>`).join("")}</tr>`)
          .join("")}</tbody></table></div>`;
      }
      return `<p>${lines.map(renderInline).join("<br>")}</p>`;
    })
    .join("");
}

/** A schema's type in a few words: "string", "integer 1–100", "one of public, unlisted", "array of object". */
function describeType(schema: JsonSchema): string {
  if (typeof schema.$ref === "string") return schema.$ref === "#/components/schemas/Error" ? "the error shape" : schema.$ref;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(", ")}`;
  if ("const" in schema) return `always ${JSON.stringify(schema.const)}`;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(describeType).join(" or ");
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === "string" ? [schema.type] : [];
  if (types.length === 0) return "any";
  const words = types.map((type) => (type === "array" && schema.items ? `array of ${describeType(schema.items as JsonSchema)}` : type));
  const limits: string[] = [];
  // Zod bounds every integer by the safe-integer range; only bounds someone chose are worth showing.
  const minimum = schema.minimum === Number.MIN_SAFE_INTEGER ? undefined : schema.minimum;
  const maximum = schema.maximum === Number.MAX_SAFE_INTEGER ? undefined : schema.maximum;
  if (typeof minimum === "number" || typeof maximum === "number") limits.push(`${minimum ?? "…"}–${maximum ?? "…"}`);
  if (typeof schema.maxLength === "number") limits.push(`≤ ${schema.maxLength} chars`);
  if (typeof schema.minLength === "number" && schema.minLength > 0) limits.push(`≥ ${schema.minLength} chars`);
  if (typeof schema.default !== "undefined") limits.push(`default ${JSON.stringify(schema.default)}`);
  return [words.join(" or "), ...limits].join(", ");
}

/** The object (or the objects inside arrays and nullables) whose fields are worth listing. */
function findFields(schema: JsonSchema): JsonSchema | null {
  if (schema.properties) return schema;
  if (schema.items) return findFields(schema.items as JsonSchema);
  for (const option of (schema.anyOf ?? []) as JsonSchema[]) {
    const fields = findFields(option);
    if (fields) return fields;
  }
  return null;
}

function renderFields(schema: JsonSchema): string {
  const object = findFields(schema);
  if (!object) return "";
  const required = new Set((object.required ?? []) as string[]);
  const rows = Object.entries(object.properties as Record<string, JsonSchema>).map(
    ([name, field]) =>
      `<li><code class="field-name">${escapeHtml(name)}</code>${required.has(name) ? "" : ' <span class="muted">optional</span>'} <span class="field-type">${escapeHtml(describeType(field))}</span>${
        typeof field.description === "string" ? ` <span class="muted">— ${renderInline(field.description)}</span>` : ""
      }${renderFields(field)}</li>`,
  );
  return `<ul class="fields">${rows.join("")}</ul>`;
}

function renderContent(content: Record<string, { schema?: JsonSchema }> | undefined): string {
  return Object.entries(content ?? {})
    .map(([type, media]) => {
      if (!media.schema) return `<p class="muted"><code>${escapeHtml(type)}</code></p>`;
      if (media.schema.$ref) return `<p class="muted"><code>${escapeHtml(type)}</code>: ${escapeHtml(describeType(media.schema))}</p>`;
      return `<p class="muted"><code>${escapeHtml(type)}</code>: ${escapeHtml(describeType(media.schema))}</p>${renderFields(media.schema)}`;
    })
    .join("");
}

function renderParameters(parameters: NonNullable<Operation["parameters"]>): string {
  if (parameters.length === 0) return "";
  const rows = parameters.map(
    (parameter) =>
      `<tr><td><code>${escapeHtml(parameter.name)}</code></td><td>${parameter.in}${parameter.required ? "" : ", optional"}</td><td>${escapeHtml(
        parameter.in === "header" ? "" : describeType(parameter.schema ?? {}),
      )}${parameter.description ?? parameter.schema?.description ? ` ${renderInline(String(parameter.description ?? parameter.schema?.description))}` : ""}</td></tr>`,
  );
  return `<h4>Parameters</h4><div class="table-scroll"><table class="table"><thead><tr><th>Name</th><th>In</th><th>Value</th></tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
}

function renderResponses(responses: NonNullable<Operation["responses"]>): string {
  const items = Object.entries(responses).map(([status, response]) => {
    const kind = status.startsWith("2") || status.startsWith("3") ? "status-ok" : "status-error";
    const headers = Object.entries(response.headers ?? {})
      .map(([name, header]) => `<li><code>${escapeHtml(name)}</code> <span class="muted">— ${renderInline(header.description ?? "")}</span></li>`)
      .join("");
    const isError = Object.values(response.content ?? {}).some((media) => media.schema?.$ref);
    return `<li><span class="status ${kind}">${escapeHtml(status)}</span> ${renderInline(response.description ?? "")}${
      headers ? `<ul class="fields">${headers}</ul>` : ""
    }${isError ? "" : renderContent(response.content)}</li>`;
  });
  return `<h4>Answers</h4><ul class="responses">${items.join("")}</ul>`;
}

function renderOperation(path: string, method: string, operation: Operation, pathParameters: Operation["parameters"]): string {
  const parameters = [...(pathParameters ?? []), ...(operation.parameters ?? [])];
  const body = operation.requestBody
    ? `<h4>Body</h4>${operation.requestBody.description ? `<p>${renderInline(operation.requestBody.description)}</p>` : ""}${renderContent(operation.requestBody.content)}`
    : "";
  return `<section class="operation" id="${escapeHtml(operation.operationId ?? `${method}-${path}`)}">
<h3><span class="method method-${method}">${method.toUpperCase()}</span> <code class="path">${escapeHtml(path)}</code></h3>
<p class="summary">${renderInline(operation.summary ?? "")}</p>
${operation.description ? `<div class="description">${renderMarkdown(operation.description)}</div>` : ""}
${renderParameters(parameters)}${body}${renderResponses(operation.responses ?? {})}
</section>`;
}

const STYLE = `
:root { --ink: #111827; --muted: #6b7280; --line: #e5e7eb; --paper: #ffffff; --wash: #f9fafb; --accent: #1f2937; --danger: #b91c1c;
  font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--paper); }
* { box-sizing: border-box; }
body { margin: 0; line-height: 1.5; }
a { color: inherit; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.88em; background: var(--wash); border: 1px solid var(--line); border-radius: 0.25rem; padding: 0 0.25rem; overflow-wrap: anywhere; }
.site-header { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: 0.75rem 1.5rem; border-bottom: 1px solid var(--line); min-height: 3.5rem; }
.site-title { font-weight: 700; letter-spacing: 0.02em; text-decoration: none; font-size: 1.1rem; }
.site-main { padding: 1.5rem; max-width: 72rem; margin: 0 auto; }
.muted { color: var(--muted); }
.button { font: inherit; border-radius: 0.375rem; border: 1px solid var(--accent); background: transparent; color: var(--accent); padding: 0.3rem 0.8rem; text-decoration: none; display: inline-block; font-size: 0.9rem; }
.toc { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; padding: 0.75rem 0; border-bottom: 1px solid var(--line); margin-bottom: 1rem; }
.table { width: 100%; border-collapse: collapse; }
.table th, .table td { text-align: left; padding: 0.45rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.table th { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); }
.table-scroll { overflow-x: auto; }
h2 { margin-top: 2.5rem; text-transform: capitalize; border-bottom: 1px solid var(--line); padding-bottom: 0.4rem; }
.operation { border: 1px solid var(--line); border-radius: 0.5rem; padding: 1rem 1.25rem; margin: 1rem 0; }
.operation h3 { margin: 0; font-size: 1.05rem; display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
.operation h4 { margin: 1rem 0 0.3rem; font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); }
.path { font-size: 1rem; background: none; border: none; padding: 0; }
.summary { margin: 0.4rem 0 0; font-weight: 600; }
.description p { margin: 0.4rem 0; }
.method { font-size: 0.75rem; font-weight: 700; letter-spacing: 0.05em; border-radius: 999px; padding: 0.1rem 0.6rem; border: 1px solid var(--line); background: var(--wash); }
.method-get, .method-head { color: #1d4ed8; border-color: #bfdbfe; background: #eff6ff; }
.method-post { color: #166534; border-color: #bbf7d0; background: #f0fdf4; }
.method-patch, .method-put { color: #92400e; border-color: #fde68a; background: #fffbeb; }
.method-delete { color: var(--danger); border-color: #fecaca; background: #fef2f2; }
.fields, .responses { list-style: none; margin: 0.2rem 0; padding-left: 0; }
.fields .fields { padding-left: 1.25rem; border-left: 1px solid var(--line); margin-left: 0.3rem; }
.fields li, .responses > li { padding: 0.15rem 0; font-size: 0.92rem; }
.field-type { font-size: 0.85rem; }
.status { display: inline-block; min-width: 2.8rem; text-align: center; font-weight: 700; font-size: 0.8rem; border-radius: 999px; padding: 0.05rem 0.5rem; border: 1px solid var(--line); }
.status-ok { color: #166534; border-color: #bbf7d0; background: #f0fdf4; }
.status-error { color: var(--muted); }
@media (max-width: 40rem) { .site-main { padding: 1rem; } .operation { padding: 0.75rem; } .site-header { padding: 0.75rem 1rem; } }
`;

/** The whole reference page for a document. */
export function renderApiReference(document: OpenApiDocument): string {
  const info = document.info as { title: string; description?: string };
  const components = document.components as { securitySchemes?: Record<string, { type: string; name?: string; in?: string; scheme?: string; description?: string }> };
  const byTag = new Map<string, string[]>();
  for (const [path, pathItem] of Object.entries(document.paths)) {
    const pathParameters = pathItem.parameters as Operation["parameters"];
    for (const method of METHOD_ORDER) {
      const operation = pathItem[method] as Operation | undefined;
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? "api";
      byTag.set(tag, [...(byTag.get(tag) ?? []), renderOperation(path, method, operation, pathParameters)]);
    }
  }
  const tags = [...byTag.keys()].sort();
  const schemes = Object.entries(components.securitySchemes ?? {})
    .map(([name, scheme]) => {
      const how = scheme.type === "http" ? `<code>Authorization: Bearer …</code>` : `cookie <code>${escapeHtml(scheme.name ?? "")}</code>`;
      return `<h3>${escapeHtml(name)} <span class="muted">(${how})</span></h3>${renderMarkdown(scheme.description ?? "")}`;
    })
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Contact Sheet</title>
<style>${STYLE}</style>
</head>
<body>
<header class="site-header"><a class="site-title" href="/">Contact Sheet</a><a class="button" href="/api/openapi.json">openapi.json</a></header>
<main class="site-main">
<h1>${escapeHtml(info.title)}</h1>
${renderMarkdown(info.description ?? "")}
<nav class="toc" aria-label="Sections"><a href="#authentication">Authentication</a>${tags.map((tag) => `<a href="#tag-${escapeHtml(tag)}">${escapeHtml(tag)}</a>`).join("")}</nav>
<h2 id="authentication">Authentication</h2>
${schemes}
${tags.map((tag) => `<h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${(byTag.get(tag) ?? []).join("\n")}`).join("\n")}
</main>
</body>
</html>`;
}
