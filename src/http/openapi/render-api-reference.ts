import type { OpenApiDocument } from "./build-openapi-document";
import type { JsonSchema } from "./json-schema";

// The API reference at /api/docs: one HTML page built on the server from the OpenAPI document,
// with no script and nothing fetched from elsewhere, so it works on a site with no internet.
// The look follows app/styles/tokens.css (see STYLE below).

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

// The design tokens this page needs, copied from app/styles/tokens.css (same names, same
// light-dark() pairs): a route handler's answer does not get the app's stylesheet. The theme follows
// the system; there is no script here to read the reader's toggle.
const STYLE = `
:root { color-scheme: light dark;
  --color-bg: light-dark(#fbfbfa, #0e0e0f); --color-surface: light-dark(#ffffff, #18181a); --color-surface-sunken: light-dark(#f2f2f0, #111112);
  --color-ink: light-dark(#1a1a1a, #ececea); --color-ink-muted: light-dark(#5c5c5c, #a3a3a0);
  --color-line: light-dark(#e3e3e0, #2c2c2e); --color-line-strong: light-dark(#c4c4c0, #48484b);
  --color-accent: light-dark(#1f5fd1, #7fa8ff); --color-accent-hover: light-dark(#174ca9, #a5c2ff); --color-focus: light-dark(#1f5fd1, #a5c2ff);
  --color-danger: light-dark(#b42318, #ff8a80); --color-danger-soft: light-dark(#fdecea, #3a1714);
  --color-success: light-dark(#1e6b3a, #7bd99a); --color-success-soft: light-dark(#e7f5ec, #12301d);
  --color-warning: light-dark(#8a5300, #f2c46d); --color-warning-soft: light-dark(#fdf3e1, #33260d);
  --font-sans: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --font-mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  --radius-sm: 4px; --radius-md: 8px; --radius-lg: 14px; --radius-pill: 999px; --gutter: clamp(0.75rem, 2.2vw, 2rem);
  font-family: var(--font-sans); color: var(--color-ink); background: var(--color-bg); }
* { box-sizing: border-box; }
body { margin: 0; line-height: 1.55; }
a { color: var(--color-accent); text-underline-offset: 0.18em; }
a:hover { color: var(--color-accent-hover); }
:focus-visible { outline: 2px solid var(--color-focus); outline-offset: 2px; border-radius: var(--radius-sm); }
h1, h2, h3 { line-height: 1.25; letter-spacing: -0.01em; }
h1 { font-size: 1.75rem; }
code { font-family: var(--font-mono); font-size: 0.88em; background: var(--color-surface-sunken); border: 1px solid var(--color-line); border-radius: var(--radius-sm); padding: 0 0.25rem; overflow-wrap: anywhere; }
.site-header { position: sticky; top: 0; display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: 0.5rem var(--gutter); border-bottom: 1px solid var(--color-line); min-height: 3.5rem; background: var(--color-bg); }
.site-title { font-weight: 650; letter-spacing: 0.01em; text-decoration: none; font-size: 1.125rem; color: var(--color-ink); }
.site-title:hover { color: var(--color-ink); }
.site-main { padding: 1.5rem var(--gutter) 3rem; max-width: 72rem; margin: 0 auto; }
.muted { color: var(--color-ink-muted); }
.button { display: inline-flex; align-items: center; min-height: 2.5rem; font: inherit; font-size: 0.875rem; font-weight: 500; border-radius: var(--radius-md); border: 1px solid var(--color-line-strong); background: var(--color-surface); color: var(--color-ink); padding: 0 1rem; text-decoration: none; }
.button:hover { background: var(--color-surface-sunken); color: var(--color-ink); }
.toc { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; padding: 0.75rem 0; border-bottom: 1px solid var(--color-line); margin-bottom: 1rem; }
.toc a { display: inline-flex; align-items: center; min-height: 2.75rem; text-transform: capitalize; }
.table { width: 100%; border-collapse: collapse; font-size: 0.875rem; }
.table th, .table td { text-align: left; padding: 0.5rem; border-bottom: 1px solid var(--color-line); vertical-align: top; }
.table th { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--color-ink-muted); }
.table-scroll { overflow-x: auto; }
h2 { margin-top: 2.5rem; text-transform: capitalize; border-bottom: 1px solid var(--color-line); padding-bottom: 0.4rem; }
.operation { border: 1px solid var(--color-line); border-radius: var(--radius-md); padding: 1rem 1.25rem; margin: 1rem 0; background: var(--color-surface); }
.operation h3 { margin: 0; font-size: 1.05rem; display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
.operation h4 { margin: 1rem 0 0.3rem; font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--color-ink-muted); }
.path { font-size: 1rem; background: none; border: none; padding: 0; }
.summary { margin: 0.4rem 0 0; font-weight: 600; }
.description p { margin: 0.4rem 0; }
.method { font-size: 0.75rem; font-weight: 700; letter-spacing: 0.05em; border-radius: var(--radius-pill); padding: 0.1rem 0.6rem; border: 1px solid currentColor; color: var(--color-ink-muted); background: var(--color-surface-sunken); }
.method-get, .method-head { color: var(--color-accent); }
.method-post { color: var(--color-success); background: var(--color-success-soft); }
.method-patch, .method-put { color: var(--color-warning); background: var(--color-warning-soft); }
.method-delete { color: var(--color-danger); background: var(--color-danger-soft); }
.fields, .responses { list-style: none; margin: 0.2rem 0; padding-left: 0; }
.fields .fields { padding-left: 1.25rem; border-left: 1px solid var(--color-line); margin-left: 0.3rem; }
.fields li, .responses > li { padding: 0.15rem 0; font-size: 0.92rem; }
.field-type { font-size: 0.85rem; }
.status { display: inline-block; min-width: 2.8rem; text-align: center; font-weight: 700; font-size: 0.75rem; border-radius: var(--radius-pill); padding: 0.05rem 0.5rem; border: 1px solid var(--color-line-strong); }
.status-ok { color: var(--color-success); border-color: currentColor; background: var(--color-success-soft); }
.status-error { color: var(--color-ink-muted); }
@media (max-width: 40rem) { .operation { padding: 0.75rem; } }
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
