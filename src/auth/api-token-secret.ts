import { createHash, randomBytes } from "node:crypto";

/** Every secret starts with this, so secret scanners (and people) can recognise a leaked one. */
export const API_TOKEN_PREFIX = "cs_";

// 32 random bytes: 256 bits, far beyond guessing, so a fast unsalted hash is enough to store it.
const SECRET_BYTES = 32;
const SECRET_PATTERN = /^cs_[A-Za-z0-9_-]{43}$/;
const HINT_RANDOM_CHARACTERS = 4;

/** A new secret: `cs_` and 43 base64url characters. */
export function generateApiTokenSecret(): string {
  return API_TOKEN_PREFIX + randomBytes(SECRET_BYTES).toString("base64url");
}

/** Whether a value has the exact shape of one of our secrets (checked before any database work). */
export function isWellFormedApiTokenSecret(value: string): boolean {
  return SECRET_PATTERN.test(value);
}

/**
 * The stored form of a secret: hex SHA-256. The secret is high-entropy random, so no salt or slow
 * hash is needed, and the hash can be looked up by equality in a unique index. An attacker who can
 * time the lookup learns about hashes of their own guesses only, never about the stored secret.
 */
export function hashApiTokenSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** The part of a secret that lists show (`cs_` and four characters), to tell tokens apart. */
export function toApiTokenHint(secret: string): string {
  return secret.slice(0, API_TOKEN_PREFIX.length + HINT_RANDOM_CHARACTERS);
}
