import { z } from "zod";
import { MAXIMUM_PASSWORD_LENGTH, MINIMUM_PASSWORD_LENGTH } from "./password-rules";
import { ROLES } from "@/src/access/roles";
import { normalizeEmail } from "./normalize-email";
import { schemaMatches } from "@/src/validation/schema-matches";
import { singleLineText } from "@/src/validation/input-text";

// Zod's default e-mail pattern, widened from ASCII to letters, marks and digits of any script, so
// internationalised addresses ("josé@…", RFC 6531) can have accounts.
const INTERNATIONAL_EMAIL_PATTERN =
  /^(?:[\p{L}\p{M}\p{N}_'+-]+\.)*[\p{L}\p{M}\p{N}_'+-]*[\p{L}\p{M}\p{N}_+-]@(?:[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N}-]*\.)+[\p{L}\p{M}]{2,}$/u;

export const emailSchema = z
  .string()
  .transform(normalizeEmail)
  .pipe(z.string().max(254).pipe(z.email({ pattern: INTERNATIONAL_EMAIL_PATTERN, error: "Enter a valid e-mail address." })));

export const passwordSchema = z
  .string()
  .min(MINIMUM_PASSWORD_LENGTH, `Use at least ${MINIMUM_PASSWORD_LENGTH} characters.`)
  .max(MAXIMUM_PASSWORD_LENGTH, `Use at most ${MAXIMUM_PASSWORD_LENGTH} characters.`);

export const MAXIMUM_NAME_LENGTH = 100;

/** A display name: one line, no control characters (CR, LF, NUL... could reach headers or logs). */
export const nameSchema = singleLineText(MAXIMUM_NAME_LENGTH, { minimum: 1, tooShort: "Enter a name.", tooLong: `Use at most ${MAXIMUM_NAME_LENGTH} characters.` });

export const roleSchema = z.enum(ROLES);

export const createUserSchema = z.strictObject({
  email: emailSchema,
  name: nameSchema,
  role: roleSchema.default("viewer"),
  password: passwordSchema,
});

export const updateUserSchema = z
  .strictObject({
    name: nameSchema.optional(),
    role: roleSchema.optional(),
    disabled: z.boolean().optional(),
  })
  .refine((value) => Object.keys(value).length > 0, "Send at least one of name, role, disabled.");

export const resetPasswordSchema = z.strictObject({ password: passwordSchema });

export const setupAdminSchema = z.strictObject({
  token: z.string().min(1).max(200),
  email: emailSchema,
  name: nameSchema,
  password: passwordSchema,
});

export type CreateUserInput = z.infer<typeof createUserSchema>;
export type UpdateUserInput = z.infer<typeof updateUserSchema>;

/** A user as the API shows it: never the password hash or session version. */
export interface PublicUser {
  id: string;
  email: string;
  name: string;
  role: (typeof ROLES)[number];
  isDisabled: boolean;
  hasPassword: boolean;
  createdAt: string;
}

export const publicUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  isDisabled: z.boolean(),
  hasPassword: z.boolean().describe("False for accounts that only sign in through a provider."),
  createdAt: z.string(),
});

export const userResponseSchema = z.object({ user: publicUserSchema });
export const userListResponseSchema = z.object({ users: z.array(publicUserSchema) });
export const setupResponseSchema = z.object({ id: z.string().describe("The new admin's id.") });

schemaMatches<z.output<typeof publicUserSchema>, PublicUser>(true);
