/**
 * The roles, in rising order of what they may do. Client-safe (no server imports): the database
 * types, the guards and the admin pages all read this one list.
 */
export const ROLES = ["viewer", "editor", "admin"] as const;
export type Role = (typeof ROLES)[number];

const ROLE_RANK: Record<Role, number> = { viewer: 1, editor: 2, admin: 3 };

/** Whether a user with `role` may do what `required` may do (admins may do everything editors may). */
export function hasRole(role: Role, required: Role): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[required];
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && Object.hasOwn(ROLE_RANK, value);
}
