import "server-only";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import { changedFields } from "@/src/audit/changed-fields";
import { hashPassword, verifyPassword } from "./password";
import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { inTransaction } from "@/src/db/transaction";
import type { UserRow } from "@/src/db/database";
import { isUniqueViolation } from "@/src/db/errors";
import { AppError } from "@/src/errors/app-error";
import { removePhotos } from "@/src/photos/photo-lifecycle";
import {
  buildNewUser,
  countActiveUsersWithRole,
  deleteUser,
  findUserByEmail,
  findUserById,
  incrementSessionVersion,
  insertUser,
  listUsers,
  updateUser,
} from "./users.repository";
import type { CreateUserInput, PublicUser, UpdateUserInput } from "./users.schemas";

function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    isDisabled: row.disabled_at !== null,
    hasPassword: row.password_hash !== null,
    createdAt: row.created_at,
  };
}

function assertAdmin(actor: SessionUser): void {
  // The handler wrapper checks this too; services check again so no caller can forget.
  if (actor.role !== "admin") throw new AppError("FORBIDDEN", "Only admins can manage users.");
}

async function getUserOrThrow(db: DatabaseHandle, id: string): Promise<UserRow> {
  const user = await findUserById(db, id);
  if (!user) throw new AppError("NOT_FOUND", "No user has that id.");
  return user;
}

/** Refuses a change that would leave the site with no active admin. */
async function assertAnotherActiveAdmin(db: DatabaseHandle, user: UserRow, action: string): Promise<void> {
  if (user.role !== "admin" || user.disabled_at !== null) return;
  if ((await countActiveUsersWithRole(db, "admin")) <= 1) {
    throw new AppError("CONFLICT", `Cannot ${action} the last active admin.`);
  }
}

export async function listUsersForAdmin(db: DatabaseHandle, actor: SessionUser): Promise<PublicUser[]> {
  assertAdmin(actor);
  return (await listUsers(db)).map(toPublicUser);
}

/** Creates a user with a password. Also used, without an actor, for the first admin. */
export async function createUser(db: DatabaseHandle, actor: SessionUser | null, input: CreateUserInput): Promise<PublicUser> {
  if (actor) assertAdmin(actor);
  const now = new Date().toISOString();
  const row = buildNewUser({ ...input, passwordHash: await hashPassword(input.password), now });
  try {
    await inTransaction(db, async (transaction) => {
      await insertUser(transaction, row);
      await insertAuditEntry(
        transaction,
        { actorId: actor?.id ?? null, action: "user.create", targetId: row.id, details: { after: { email: row.email, name: row.name, role: row.role } } },
        now,
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", "A user with that e-mail already exists.");
    throw error;
  }
  return toPublicUser(await getUserOrThrow(db, row.id));
}

export async function updateUserByAdmin(db: DatabaseHandle, actor: SessionUser, id: string, input: UpdateUserInput): Promise<PublicUser> {
  assertAdmin(actor);
  const user = await getUserOrThrow(db, id);
  const isDemotion = input.role !== undefined && input.role !== "admin";
  if (isDemotion) await assertAnotherActiveAdmin(db, user, "demote");
  if (input.disabled === true) await assertAnotherActiveAdmin(db, user, "disable");

  const now = new Date().toISOString();
  const disabledAt = input.disabled === undefined ? user.disabled_at : input.disabled ? (user.disabled_at ?? now) : null;
  // A disable or a role change ends every session, so undoing it later (enable, change back) cannot
  // bring an old cookie back to life. Enabling ends them too: every token a disabled user still holds
  // is from before the disable (accounts disabled before this rule existed included). A rename, or
  // setting what is already set, leaves sessions alone.
  const isRoleChange = input.role !== undefined && input.role !== user.role;
  const isDisabledChange = input.disabled !== undefined && input.disabled !== (user.disabled_at !== null);
  await inTransaction(db, async (transaction) => {
    await updateUser(transaction, id, {
      name: input.name ?? user.name,
      role: input.role ?? user.role,
      disabled_at: disabledAt,
      updated_at: now,
    });
    if (isRoleChange || isDisabledChange) await incrementSessionVersion(transaction, id, now);
    const before = { name: user.name, role: user.role, disabled: user.disabled_at !== null };
    const after = { name: input.name ?? user.name, role: input.role ?? user.role, disabled: disabledAt !== null };
    await insertAuditEntry(transaction, { actorId: actor.id, action: "user.update", targetId: id, details: changedFields(before, after) }, now);
  });
  return toPublicUser(await getUserOrThrow(db, id));
}

/** Sets a new password and signs the user out of every session. */
export async function resetPasswordByAdmin(db: DatabaseHandle, actor: SessionUser, id: string, password: string): Promise<void> {
  assertAdmin(actor);
  await getUserOrThrow(db, id);
  const passwordHash = await hashPassword(password);
  const now = new Date().toISOString();
  await inTransaction(db, async (transaction) => {
    await updateUser(transaction, id, { password_hash: passwordHash, updated_at: now });
    await incrementSessionVersion(transaction, id, now);
    await insertAuditEntry(transaction, { actorId: actor.id, action: "user.reset-password", targetId: id }, now);
  });
}

/** Refuses every token issued to the user before now: the next request needs a new sign-in. */
export async function signOutEverywhere(db: DatabaseHandle, actor: SessionUser, id: string): Promise<void> {
  if (actor.id !== id) assertAdmin(actor);
  const now = new Date().toISOString();
  await inTransaction(db, async (transaction) => {
    if (!(await incrementSessionVersion(transaction, id, now))) {
      throw new AppError("NOT_FOUND", "No user has that id.");
    }
    await insertAuditEntry(transaction, { actorId: actor.id, action: "user.sign-out-everywhere", targetId: id }, now);
  });
}

export async function deleteUserByAdmin(db: DatabaseHandle, actor: SessionUser, id: string): Promise<void> {
  assertAdmin(actor);
  const user = await getUserOrThrow(db, id);
  await assertAnotherActiveAdmin(db, user, "delete");
  const now = new Date().toISOString();
  // Their photos go in the same transaction; their files are deleted once that has committed.
  await removePhotos(db, { ownerId: id }, async (transaction) => {
    await deleteUser(transaction, id);
    const details = { before: { email: user.email, name: user.name, role: user.role } };
    await insertAuditEntry(transaction, { actorId: actor.id, action: "user.delete", targetId: id, details }, now);
  });
}

/**
 * Checks an e-mail and password. Answers the user only when the password is right and the account
 * is active; every failure looks the same to the caller and costs the same time.
 */
export async function authenticateWithPassword(db: DatabaseHandle, email: string, password: string): Promise<UserRow | null> {
  const user = await findUserByEmail(db, email);
  const isPasswordRight = await verifyPassword(user?.password_hash ?? null, password);
  if (!user || !isPasswordRight || user.disabled_at !== null) return null;
  return user;
}
