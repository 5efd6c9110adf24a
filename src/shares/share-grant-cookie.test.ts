import { beforeAll, describe, expect, it } from "vitest";

// The grant cookie is signed with a key derived from NEXTAUTH_SECRET; set one before the module reads it.
beforeAll(() => {
  process.env.NEXTAUTH_SECRET ??= "unit-test-secret-0123456789abcdefghijkl";
});

async function load() {
  return import("./share-grant-cookie");
}

const NOW = new Date("2026-11-27T10:00:00Z");

describe("the share grant cookie", () => {
  it("reads back what it wrote", async () => {
    const { encodeShareGrant, decodeShareGrant } = await load();
    const { value, grant } = encodeShareGrant("share-1", 3, NOW);
    expect(decodeShareGrant(value)).toEqual(grant);
    expect(grant).toMatchObject({ shareId: "share-1", grantVersion: 3, issuedAt: Math.floor(NOW.getTime() / 1000) });
  });

  it("refuses a payload changed to name another share or version, with the old signature", async () => {
    const { encodeShareGrant, decodeShareGrant } = await load();
    const { value } = encodeShareGrant("share-1", 1, NOW);
    const [, signature] = value.split(".");
    for (const forged of [
      ["share-2", 1, "visit", 1],
      ["share-1", 2, "visit", 1],
    ]) {
      const payload = Buffer.from(JSON.stringify(forged)).toString("base64url");
      expect(decodeShareGrant(`${payload}.${signature}`)).toBeNull();
    }
  });

  it("refuses a flipped signature character, a missing or extra part, and junk", async () => {
    const { encodeShareGrant, decodeShareGrant } = await load();
    const { value } = encodeShareGrant("share-1", 1, NOW);
    const [payload, signature] = value.split(".");
    const flipped = signature.slice(0, -1) + (signature.endsWith("A") ? "B" : "A");
    expect(decodeShareGrant(`${payload}.${flipped}`)).toBeNull();
    expect(decodeShareGrant(payload)).toBeNull();
    expect(decodeShareGrant(`${payload}.${signature}.x`)).toBeNull();
    expect(decodeShareGrant(`.${signature}`)).toBeNull();
    expect(decodeShareGrant("")).toBeNull();
    expect(decodeShareGrant(undefined)).toBeNull();
    expect(decodeShareGrant("x".repeat(600))).toBeNull();
  });

  it("refuses a well-signed payload of the wrong shape", async () => {
    const { decodeShareGrant } = await load();
    const { createHmac } = await import("node:crypto");
    const key = createHmac("sha256", process.env.NEXTAUTH_SECRET as string).update("contact-sheet share grant v1").digest();
    const signed = (parts: unknown) => {
      const payload = Buffer.from(JSON.stringify(parts)).toString("base64url");
      return `${payload}.${createHmac("sha256", key).update(payload).digest("base64url")}`;
    };
    expect(decodeShareGrant(signed(["share-1", 1, "visit", 1]))).not.toBeNull();
    expect(decodeShareGrant(signed(["share-1", "1", "visit", 1]))).toBeNull();
    expect(decodeShareGrant(signed(["share-1", 1.5, "visit", 1]))).toBeNull();
    expect(decodeShareGrant(signed(["share-1", 1, "visit"]))).toBeNull();
    expect(decodeShareGrant(signed({ shareId: "share-1" }))).toBeNull();
  });

  it("sets a cookie scoped to the link's path, HttpOnly, SameSite=Lax, Secure only on https", async () => {
    const { grantCookieHeader } = await load();
    const header = grantCookieHeader("AAAAAAAAAAAAAAAAAAAAAAAA", "value", false);
    expect(header).toMatch(/^cs_share_grant=value; Path=\/s\/AAAAAAAAAAAAAAAAAAAAAAAA; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect(grantCookieHeader("AAAAAAAAAAAAAAAAAAAAAAAA", "value", true)).toMatch(/; Secure$/);
  });
});
