import { createHash, randomBytes } from "node:crypto";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import { hashPassword } from "@/src/users/password";
import type { DatabaseHandle } from "@/src/db/client";
import { inTransaction } from "@/src/db/transaction";
import { isUniqueViolation } from "@/src/db/errors";
import { AppError } from "@/src/errors/app-error";
import { deleteSettingIfValue, findSetting, upsertSetting } from "@/src/settings/settings.repository";
import { buildNewUser, countActiveUsersWithRole, insertUser } from "@/src/users/users.repository";

const SETUP_TOKEN_KEY = "setup_token_sha256";

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export async function hasAdmin(db: DatabaseHandle): Promise<boolean> {
  return (await countActiveUsersWithRole(db, "admin")) > 0;
}

/**
 * Makes a new one-time setup token when the site has no admin yet, and answers it (only its hash is
 * stored). Each start makes a fresh one, so an old printed link stops working.
 */
export async function issueSetupToken(db: DatabaseHandle): Promise<string | null> {
  if (await hasAdmin(db)) return null;
  const token = randomBytes(24).toString("base64url");
  await upsertSetting(db, SETUP_TOKEN_KEY, hashToken(token));
  return token;
}

export async function isSetupTokenValid(db: DatabaseHandle, token: string): Promise<boolean> {
  const stored = await findSetting(db, SETUP_TOKEN_KEY);
  return stored !== undefined && stored === hashToken(token) && !(await hasAdmin(db));
}

interface FirstAdminInput {
  email: string;
  name: string;
  password: string;
}

/** Inserts an admin with its audit entry, inside the caller's transaction. */
async function insertAdmin(db: DatabaseHandle, input: FirstAdminInput, passwordHash: string, action: string, now: string): Promise<string> {
  const admin = buildNewUser({ email: input.email, name: input.name, role: "admin", passwordHash, now });
  await insertUser(db, admin);
  await insertAuditEntry(db, { actorId: null, action, targetId: admin.id }, now);
  return admin.id;
}

/**
 * Creates the first admin with the one-time token. Using the token deletes it in the same
 * transaction, so of two requests racing with the same link only one gets through.
 */
export async function createFirstAdmin(db: DatabaseHandle, token: string, input: FirstAdminInput): Promise<{ id: string }> {
  const passwordHash = await hashPassword(input.password);
  const now = new Date().toISOString();
  try {
    const id = await inTransaction(db, async (transaction) => {
      const isTokenUsed = await deleteSettingIfValue(transaction, SETUP_TOKEN_KEY, hashToken(token));
      if (!isTokenUsed || (await countActiveUsersWithRole(transaction, "admin")) > 0) {
        throw new AppError("NOT_FOUND", "This setup link is not valid any more. Setup is closed once an admin exists.");
      }
      return insertAdmin(transaction, input, passwordHash, "setup.first-admin", now);
    });
    return { id };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", "A user with that e-mail already exists.");
    throw error;
  }
}

/** ADMIN_EMAIL + ADMIN_PASSWORD: create the first admin without the setup page, once. */
export async function createAdminFromEnvironment(db: DatabaseHandle, input: FirstAdminInput): Promise<boolean> {
  if (await hasAdmin(db)) return false;
  const passwordHash = await hashPassword(input.password);
  const now = new Date().toISOString();
  try {
    await inTransaction(db, (transaction) => insertAdmin(transaction, input, passwordHash, "setup.admin-from-environment", now));
  } catch (error) {
    // Another instance starting at the same moment created it.
    if (isUniqueViolation(error)) return false;
    throw error;
  }
  return true;
}
