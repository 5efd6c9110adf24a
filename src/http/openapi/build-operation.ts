import { ERROR_STATUS } from "@/src/errors/app-error";
import { hasRole, ROLES } from "@/src/access/roles";
import type { HandlerAccess, HandlerContract } from "../handler-contract";
import { ERROR_STATUS_DESCRIPTIONS, listErrorCodes } from "./error-responses";
import { type JsonSchema, toJsonSchema } from "./json-schema";
import { listPathParameters } from "./route-path";

export const SESSION_SCHEME = "sessionCookie";
export const TOKEN_SCHEME = "apiToken";
export const SHARE_SCHEME = "shareGrant";
export const ERROR_SCHEMA_REF = { $ref: "#/components/schemas/Error" };

type OpenApiObject = Record<string, unknown>;

/** Who may call, in words: the reference shows it next to each operation. */
export function describeAccess(access: HandlerAccess): string {
  if (access.kind === "public") return "Anyone.";
  if (access.kind === "viewer") return "Anyone; signed-in users (session cookie) may get more.";
  if (access.kind === "share") return "A visitor admitted to this share link (its grant cookie); 401 for any link that is unknown, revoked, expired, used up or needs its password.";
  const roles = ROLES.filter((role) => hasRole(role, access.role)).join(", ");
  const session = `Signed in (session cookie) as ${roles}`;
  return access.scope ? `${session}; or an API token with the \`${access.scope}\` scope whose owner is one of those.` : `${session}. API tokens are not accepted.`;
}

/** OpenAPI's security requirement: any one of the listed alternatives lets the call through. */
function toSecurity(access: HandlerAccess): OpenApiObject[] {
  if (access.kind === "public") return [];
  if (access.kind === "viewer") return [{}, { [SESSION_SCHEME]: [] }];
  if (access.kind === "share") return [{ [SHARE_SCHEME]: [] }];
  // OpenAPI 3.1 lets non-OAuth schemes list "roles"; for the cookie that is the least role.
  return [{ [SESSION_SCHEME]: [access.role] }, ...(access.scope ? [{ [TOKEN_SCHEME]: [access.scope] }] : [])];
}

function toPathParameter(name: string, paramsSchema: JsonSchema | null): OpenApiObject {
  const properties = (paramsSchema?.properties ?? {}) as Record<string, JsonSchema>;
  const property = properties[name] ?? { type: "string" };
  // A catch-all's segments arrive as an array, but on the wire they are one path of several segments.
  const schema = property.type === "array" ? { type: "string", description: property.description ?? "One or more path segments." } : property;
  return { name, in: "path", required: true, schema };
}

function toQueryParameters(querySchema: JsonSchema): OpenApiObject[] {
  const properties = (querySchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((querySchema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => ({ name, in: "query", required: required.has(name), schema }));
}

function toHeaderParameters(headers: Record<string, string>): OpenApiObject[] {
  return Object.entries(headers).map(([name, description]) => ({ name, in: "header", required: false, description, schema: { type: "string" } }));
}

function toRequestBody(contract: HandlerContract): OpenApiObject | undefined {
  if (contract.body) {
    return { required: true, content: { "application/json": { schema: toJsonSchema(contract.body, "input") } } };
  }
  if (contract.rawBody) {
    return { description: contract.rawBody.description, required: true, content: { [contract.rawBody.contentType]: {} } };
  }
  return undefined;
}

function toResponses(method: string, access: HandlerAccess, contract: HandlerContract): OpenApiObject {
  const { response } = contract;
  const headers = Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: "string" } }]));
  const success: OpenApiObject = { description: response.description, ...(response.headers ? { headers } : {}) };
  if (response.schema) success.content = { "application/json": { schema: toJsonSchema(response.schema, "output") } };
  else if (response.contentType) success.content = { [response.contentType]: {} };
  const responses: OpenApiObject = { [String(response.status)]: success };
  for (const code of listErrorCodes(method, access, contract)) {
    const status = String(ERROR_STATUS[code]);
    const known = responses[status] as { description: string } | undefined;
    const description = known ? `${known.description} ${ERROR_STATUS_DESCRIPTIONS[code]}` : `${code}: ${ERROR_STATUS_DESCRIPTIONS[code]}`;
    responses[status] = { description, content: { "application/json": { schema: ERROR_SCHEMA_REF } } };
  }
  return responses;
}

/** The OpenAPI operation for one wrapped handler at one path. */
export function buildOperation(path: string, method: string, access: HandlerAccess, contract: HandlerContract): OpenApiObject {
  const paramsSchema = contract.params ? toJsonSchema(contract.params, "input") : null;
  const parameters = [
    ...listPathParameters(path).map((name) => toPathParameter(name, paramsSchema)),
    ...(contract.query ? toQueryParameters(toJsonSchema(contract.query, "input")) : []),
    ...toHeaderParameters(contract.requestHeaders ?? {}),
  ];
  const requestBody = toRequestBody(contract);
  return {
    operationId: toOperationId(method, path),
    summary: contract.summary,
    description: [contract.description, `**Who may call:** ${describeAccess(access)}`].filter(Boolean).join("\n\n"),
    tags: [toTag(path)],
    security: toSecurity(access),
    ...(access.kind === "user" ? { "x-minimum-role": access.role } : {}),
    ...(access.kind === "user" && access.scope ? { "x-token-scope": access.scope } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: toResponses(method, access, contract),
  };
}

/** `get /api/photos/{id}` gives `getApiPhotosById`: unique per method and path. */
export function toOperationId(method: string, path: string): string {
  const words = path
    .split("/")
    .filter(Boolean)
    .map((segment) => (segment.startsWith("{") ? `by-${segment.slice(1, -1)}` : segment))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return method.toLowerCase() + words.map((word) => word[0].toUpperCase() + word.slice(1)).join("");
}

// Small groups read better together in the reference: a signed-in user's own things, the
// site's plumbing, and the reference itself. The photo page's download sits with the photos.
const TAG_OF_SEGMENT: Record<string, string> = {
  p: "photos",
  me: "account",
  tokens: "account",
  health: "site",
  setup: "site",
  docs: "reference",
  "openapi.json": "reference",
};

/** The group a path is listed under: by its first segment after /api. */
export function toTag(path: string): string {
  const [first, second] = path.split("/").filter(Boolean);
  const segment = (first === "api" ? second : first) ?? "api";
  return TAG_OF_SEGMENT[segment] ?? segment.replace(/\{|\}/g, "");
}
