import { z } from "zod";
import { API_TOKEN_SCOPES, type ApiTokenScope } from "@/src/access/scopes";
import { normalizeScopes } from "./api-token-scopes";
import { schemaMatches } from "@/src/validation/schema-matches";
import { singleLineText } from "@/src/validation/input-text";

export const MAXIMUM_TOKEN_NAME_LENGTH = 100;
export const MAXIMUM_TOKEN_LIFETIME_DAYS = 3650;

export const createApiTokenSchema = z.strictObject({
  name: singleLineText(MAXIMUM_TOKEN_NAME_LENGTH, { minimum: 1, tooShort: "Name the token.", tooLong: `Use at most ${MAXIMUM_TOKEN_NAME_LENGTH} characters.` }),
  scopes: z
    .array(z.enum(API_TOKEN_SCOPES))
    .min(1, "Choose at least one scope.")
    .max(API_TOKEN_SCOPES.length * 2)
    .transform(normalizeScopes),
  /** Days until the token stops working; null or absent: it never expires. */
  expiresInDays: z
    .number()
    .int()
    .min(1, "A token lives at least one day.")
    .max(MAXIMUM_TOKEN_LIFETIME_DAYS, `A token lives at most ${MAXIMUM_TOKEN_LIFETIME_DAYS} days.`)
    .nullable()
    .default(null),
});

export type CreateApiTokenInput = z.infer<typeof createApiTokenSchema>;

/** A token as lists show it: never its secret or hash. */
export interface PublicApiToken {
  id: string;
  name: string;
  scopes: ApiTokenScope[];
  /** The secret's first characters (`cs_abcd`), to tell tokens apart. */
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  isExpired: boolean;
}

export const publicApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  hint: z.string().describe("The secret's first characters (cs_abcd), to tell tokens apart."),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  isExpired: z.boolean(),
});

export const apiTokenListResponseSchema = z.object({ tokens: z.array(publicApiTokenSchema) });
export const createdApiTokenResponseSchema = z.object({
  token: publicApiTokenSchema,
  secret: z.string().describe("The token itself (cs_…), answered this once only."),
});

schemaMatches<z.output<typeof publicApiTokenSchema>, PublicApiToken>(true);
