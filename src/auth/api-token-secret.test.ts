import { describe, expect, it } from "vitest";
import { generateApiTokenSecret, hashApiTokenSecret, isWellFormedApiTokenSecret, toApiTokenHint } from "./api-token-secret";

describe("API token secrets", () => {
  it("are cs_ and 43 base64url characters (256 random bits), different every time", () => {
    const secrets = new Set(Array.from({ length: 200 }, generateApiTokenSecret));
    expect(secrets.size).toBe(200);
    for (const secret of secrets) {
      expect(secret).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
      expect(isWellFormedApiTokenSecret(secret)).toBe(true);
    }
  });

  it.each([
    "",
    "cs_",
    `cs_${"a".repeat(42)}`,
    `cs_${"a".repeat(44)}`,
    `CS_${"a".repeat(43)}`,
    `xx_${"a".repeat(43)}`,
    `cs_${"a".repeat(42)}=`,
    `cs_${"a".repeat(42)}é`,
    "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..abc.def.ghi",
  ])("refuses %j as not one of ours", (value) => {
    expect(isWellFormedApiTokenSecret(value)).toBe(false);
  });

  it("hashes with SHA-256 to lower-case hex, the same secret always to the same hash", () => {
    expect(hashApiTokenSecret("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const secret = generateApiTokenSecret();
    expect(hashApiTokenSecret(secret)).toBe(hashApiTokenSecret(secret));
    expect(hashApiTokenSecret(secret)).not.toContain(secret.slice(3));
    expect(hashApiTokenSecret(secret)).not.toBe(hashApiTokenSecret(generateApiTokenSecret()));
  });

  it("hints with the prefix and four characters only", () => {
    const secret = generateApiTokenSecret();
    expect(toApiTokenHint(secret)).toBe(secret.slice(0, 7));
    expect(toApiTokenHint(secret)).toHaveLength(7);
  });
});
