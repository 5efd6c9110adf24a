import type { Role } from "@/src/db/database";

export { ROLES, type Role } from "@/src/db/database";

const ROLE_RANK: Record<Role, number> = { viewer: 1, editor: 2, admin: 3 };

/** Whether a user with `role` may do what `required` may do (admins may do everything editors may). */
export function hasRole(role: Role, required: Role): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[required];
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && value in ROLE_RANK;
}
