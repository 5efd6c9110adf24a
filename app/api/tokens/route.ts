import { apiTokenListResponseSchema, createApiTokenSchema, createdApiTokenResponseSchema } from "@/src/auth/api-tokens.schemas";
import { createApiTokenForUser, listApiTokensOfUser } from "@/src/auth/api-tokens.service";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { getDb } from "@/src/db/client";

// No `scope` on these handlers: token management takes a signed-in session only, so a stolen
// token can never mint another one or hide its own revocation.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/tokens – your API tokens (never their secrets)
  GET: withUser(async ({ user }) => Response.json({ tokens: await listApiTokensOfUser(getDb(), user) }), {
    role: "viewer",
    summary: "Your API tokens (never their secrets)",
    response: { status: 200, description: "Your tokens.", schema: apiTokenListResponseSchema },
  }),

  // POST /api/tokens – make a token; the answer carries its secret, shown this once only
  POST: withUser(
    async ({ body: input, user }) => {
      const created = await createApiTokenForUser(getDb(), user, input);
      return Response.json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
    },
    {
      role: "viewer",
      summary: "Make an API token; the answer carries its secret, this once only",
      body: createApiTokenSchema,
      response: { status: 201, description: "The token and its secret.", schema: createdApiTokenResponseSchema },
      errors: ["CONFLICT"],
    },
  ),
});
