import type { Insertable, Selectable, Updateable } from "kysely";

/**
 * Table types for Kysely. Timestamps are ISO-8601 UTC strings and flags are 0/1 integers on both
 * SQLite and PostgreSQL, so rows look the same whichever database is behind them.
 */
export interface Database {
  users: UsersTable;
  oauth_accounts: OAuthAccountsTable;
  revoked_sessions: RevokedSessionsTable;
  settings: SettingsTable;
  audit_log: AuditLogTable;
}

export const ROLES = ["viewer", "editor", "admin"] as const;
export type Role = (typeof ROLES)[number];

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  role: Role;
  password_hash: string | null;
  /** Set when an admin disables the account; a disabled user cannot sign in or use a session. */
  disabled_at: string | null;
  /** Bumped by "sign out everywhere" and password resets; tokens carrying an older value are refused. */
  session_version: number;
  created_at: string;
  updated_at: string;
}

export interface OAuthAccountsTable {
  provider: string;
  provider_account_id: string;
  user_id: string;
  created_at: string;
}

export interface RevokedSessionsTable {
  session_id: string;
  user_id: string;
  /** When the session would have expired anyway; after that the row can go. */
  expires_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface AuditLogTable {
  id: string;
  actor_id: string | null;
  action: string;
  target_id: string | null;
  details: string;
  created_at: string;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
