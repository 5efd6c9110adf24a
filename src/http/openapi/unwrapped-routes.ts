import { ERROR_SCHEMA_REF } from "./build-operation";

// The two route files that are not exported through our wrappers, described by hand because no
// wrapper metadata exists for them: next-auth answers with its own handler (its own CSRF check,
// redirects and JSON), and the /api catch-all exists only to answer JSON 404s. The route-wrapper
// test names the same two files as its only exceptions.

const errorContent = { "application/json": { schema: ERROR_SCHEMA_REF } };

const NEXT_AUTH_DESCRIPTION = [
  "next-auth's own endpoints, answered by next-auth (not by the API wrapper). The ones a client uses:",
  "",
  "- `GET /api/auth/csrf` — `{\"csrfToken\": …}`, needed by every POST here.",
  "- `GET /api/auth/session` — the signed-in user, or `{}`.",
  "- `GET /api/auth/providers` — the sign-in methods this site offers.",
  "- `POST /api/auth/callback/credentials` — password sign-in: a UTF-8 `application/x-www-form-urlencoded` form with `email`, `password`, `csrfToken`, each once; anything else is answered 400 before a password is checked; too many failures answer 429 with `Retry-After`. Sets the session cookie.",
  "- `GET /api/auth/signin/{provider}`, `GET /api/auth/callback/{provider}` — OAuth and OpenID Connect sign-in (github, google, oidc).",
  "- `POST /api/auth/signout` — ends this session (form with `csrfToken`).",
  "",
  "API tokens are never accepted here.",
].join("\n");

const nextAuthParameter = {
  name: "nextauth",
  in: "path",
  required: true,
  description: "One or more path segments: csrf, session, providers, signin/{provider}, callback/{provider}, signout.",
  schema: { type: "string" },
};

const NEXT_AUTH_PATH_ITEM = {
  parameters: [nextAuthParameter],
  get: {
    operationId: "getApiAuthByNextauth",
    summary: "next-auth: session, CSRF token, providers, OAuth sign-in and callbacks",
    description: NEXT_AUTH_DESCRIPTION,
    tags: ["auth"],
    security: [],
    responses: {
      "200": { description: "JSON for csrf, session and providers." },
      "302": { description: "Redirects of the OAuth flow, and to the sign-in page on errors." },
    },
  },
  post: {
    operationId: "postApiAuthByNextauth",
    summary: "next-auth: password sign-in and sign-out",
    description: NEXT_AUTH_DESCRIPTION,
    tags: ["auth"],
    security: [],
    requestBody: { required: true, content: { "application/x-www-form-urlencoded": {} } },
    responses: {
      "200": { description: "Signed in or out (`{\"url\": …}` where the client asked for JSON)." },
      "302": { description: "Signed in or out: on to the callback URL, or back to sign-in with an error." },
      "400": { description: "BAD_REQUEST: the sign-in form is not one plain form naming each field once.", content: errorContent },
      "429": { description: "RATE_LIMITED: too many failed sign-ins; see Retry-After.", content: errorContent },
    },
  },
};

const notFound = (method: string) => ({
  operationId: `${method}ApiByPath`,
  summary: "Any other /api path: JSON 404",
  description: "Every /api path without a handler answers 404 in the API's error shape, for every method.",
  tags: ["other paths"],
  security: [],
  responses: { "404": { description: "NOT_FOUND: there is no API endpoint at this path.", content: errorContent } },
});

const CATCH_ALL_PATH_ITEM = {
  parameters: [{ name: "path", in: "path", required: true, description: "Any path with no handler of its own.", schema: { type: "string" } }],
  get: notFound("get"),
  post: notFound("post"),
  put: notFound("put"),
  patch: notFound("patch"),
  delete: notFound("delete"),
};

/** The path items of the unwrapped routes, by their route file. */
export const UNWRAPPED_ROUTES: Record<string, { path: string; pathItem: Record<string, unknown> }> = {
  "app/api/auth/[...nextauth]/route.ts": { path: "/api/auth/{nextauth}", pathItem: NEXT_AUTH_PATH_ITEM },
  "app/api/[...path]/route.ts": { path: "/api/{path}", pathItem: CATCH_ALL_PATH_ITEM },
};
