import { createHash, randomBytes } from "node:crypto";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import { hashPassword } from "@/src/auth/password";
import { getDb } from "@/src/db/client";
import { isUniqueViolation } from "@/src/db/errors";
import { AppError } from "@/src/http/app-error";
import { deleteSettingIfValue, findSetting, upsertSetting } from "@/src/settings/settings.repository";
import { countActiveUsersWithRole, insertUser } from "@/src/users/users.repository";

const SETUP_TOKEN_KEY = "setup_token_sha256";

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export async function hasAdmin(): Promise<boolean> {
  return (await countActiveUsersWithRole(getDb(), "admin")) > 0;
}

/**
 * Makes a new one-time setup token when the site has no admin yet, and answers it (only its hash is
 * stored). Each start makes a fresh one, so an old printed link stops working.
 */
export async function issueSetupToken(): Promise<string | null> {
  if (await hasAdmin()) return null;
  const token = randomBytes(24).toString("base64url");
  await upsertSetting(getDb(), SETUP_TOKEN_KEY, hashToken(token));
  return token;
}

export async function isSetupTokenValid(token: string): Promise<boolean> {
  const stored = await findSetting(getDb(), SETUP_TOKEN_KEY);
  return stored !== undefined && stored === hashToken(token) && !(await hasAdmin());
}

interface FirstAdminInput {
  email: string;
  name: string;
  password: string;
}

/**
 * Creates the first admin with the one-time token. Using the token deletes it in the same
 * transaction, so of two requests racing with the same link only one gets through.
 */
export async function createFirstAdmin(token: string, input: FirstAdminInput): Promise<{ id: string }> {
  const passwordHash = await hashPassword(input.password);
  const now = new Date().toISOString();
  const id = crypto.randomUUID();
  try {
    await getDb()
      .transaction()
      .execute(async (transaction) => {
        const isTokenUsed = await deleteSettingIfValue(transaction, SETUP_TOKEN_KEY, hashToken(token));
        if (!isTokenUsed || (await countActiveUsersWithRole(transaction, "admin")) > 0) {
          throw new AppError("NOT_FOUND", "This setup link is not valid any more. Setup is closed once an admin exists.");
        }
        await insertUser(transaction, {
          id,
          email: input.email,
          name: input.name,
          role: "admin",
          password_hash: passwordHash,
          disabled_at: null,
          session_version: 1,
          created_at: now,
          updated_at: now,
        });
        await insertAuditEntry(transaction, { actorId: id, action: "setup.first-admin", targetId: id }, now);
      });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", "A user with that e-mail already exists.");
    throw error;
  }
  return { id };
}

/** ADMIN_EMAIL + ADMIN_PASSWORD: create the first admin without the setup page, once. */
export async function createAdminFromEnvironment(input: FirstAdminInput): Promise<boolean> {
  if (await hasAdmin()) return false;
  const now = new Date().toISOString();
  const id = crypto.randomUUID();
  try {
    await getDb()
      .transaction()
      .execute(async (transaction) => {
        await insertUser(transaction, {
          id,
          email: input.email,
          name: input.name,
          role: "admin",
          password_hash: await hashPassword(input.password),
          disabled_at: null,
          session_version: 1,
          created_at: now,
          updated_at: now,
        });
        await insertAuditEntry(transaction, { actorId: null, action: "setup.admin-from-environment", targetId: id }, now);
      });
  } catch (error) {
    // Another instance starting at the same moment created it.
    if (isUniqueViolation(error)) return false;
    throw error;
  }
  return true;
}
