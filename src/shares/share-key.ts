import { randomBytes } from "node:crypto";

// 18 random bytes: 144 bits, beyond the 128 the security rules ask for, and 24 base64url characters.
const KEY_BYTES = 18;
const SHARE_KEY_PATTERN = /^[A-Za-z0-9_-]{24}$/;

/** A new share key, the secret in `/s/[key]`. */
export function newShareKey(): string {
  return randomBytes(KEY_BYTES).toString("base64url");
}

/** Whether a value has the exact shape of a share key (checked before any database work). */
export function isWellFormedShareKey(value: string): boolean {
  return SHARE_KEY_PATTERN.test(value);
}

/** Where a share's pages live; every URL a visitor uses is under it, so the grant cookie (Path=this) reaches them all. */
export function sharePath(key: string): string {
  return `/s/${key}`;
}

/** The key in a path below `/s/[key]`, or "" when the path is not one (which no share has). */
export function shareKeyFromPath(pathname: string): string {
  const match = /^\/s\/([^/]+)/.exec(pathname);
  return match ? match[1] : "";
}
