import { hash, verify } from "@node-rs/argon2";
import { getLogger } from "@/src/log/logger";

// argon2id with OWASP's second recommended profile (19 MiB, 2 passes): strong, and about 30 ms
// on this class of machine, so a sign-in stays quick.
const ARGON2_OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export { MAXIMUM_PASSWORD_LENGTH, MINIMUM_PASSWORD_LENGTH } from "./password-rules";

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

// A real hash of a random password, so checking an unknown account costs the same as a known one.
let decoyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no hash (unknown account, OAuth-only account) it
 * still does the same work and answers false, so timing does not reveal which accounts exist.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    decoyHash ??= hash(crypto.randomUUID(), ARGON2_OPTIONS);
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch (error) {
    // A stored hash argon2 cannot read (corrupt, truncated, another algorithm) locks its owner out;
    // an admin has to hear of it. Neither the hash nor the password goes into the log.
    getLogger().error({ errorMessage: error instanceof Error ? error.message : String(error) }, "a stored password hash could not be checked");
    return false;
  }
}
