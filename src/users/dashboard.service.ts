import "server-only";
import { hasRole } from "@/src/access/roles";
import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { countUsers } from "./users.repository";

/** The dashboard's figures; the user count is for admins only. */
export async function getDashboardCounts(db: DatabaseHandle, actor: SessionUser): Promise<{ users: number | null }> {
  if (!hasRole(actor.role, "editor")) throw new AppError("FORBIDDEN", "Only editors and admins see the dashboard.");
  return { users: actor.role === "admin" ? await countUsers(db) : null };
}
