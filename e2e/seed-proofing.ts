import { createHmac, randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import SQLite from "better-sqlite3";
import { expect } from "@playwright/test";
import { E2E_ADMIN, E2E_BASE_URL, E2E_DATA_DIRECTORY } from "./constants";

// The e2e server's secret (playwright.config.ts): grant cookies are signed with a key derived from it.
const E2E_SECRET = "e2e-test-secret-0123456789abcdefghijkl";

/** A grant cookie for a share, as src/shares/share-grant-cookie.ts signs it. */
function grantCookie(shareId: string): string {
  const key = createHmac("sha256", E2E_SECRET).update("contact-sheet share grant v1").digest();
  const payload = Buffer.from(JSON.stringify([shareId, 1, randomBytes(12).toString("base64url"), Math.floor(Date.now() / 1000)])).toString("base64url");
  return `${payload}.${createHmac("sha256", key).update(payload).digest("base64url")}`;
}

async function call(key: string, cookies: string, method: string, apiPath: string, body?: unknown): Promise<Response> {
  const response = await fetch(`${E2E_BASE_URL}/s/${key}/api/${apiPath}`, {
    method,
    headers: { Cookie: cookies, Origin: E2E_BASE_URL, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.ok, `${method} ${apiPath}: ${response.status} ${await response.clone().text()}`).toBe(true);
  return response;
}

/**
 * A proofing share of the seeded photos, owned by the e2e admin, with two visitors' picks and
 * comments made through the visitor API (one sent, one not). The share row itself is written to
 * the server's SQLite file: the owner's /api/shares is another part of the share issue (swap this
 * for a POST /api/shares once it is merged). Answers the share's id.
 */
export async function seedProofingShare(photoIds: string[]): Promise<string> {
  const { id, key } = insertProofingShare(photoIds, { title: "Margaux & Theo — wedding proofs", pickLimit: 20 });
  const grant = `cs_share_grant=${grantCookie(id)}`;
  async function visitor(name: string, email: string | null): Promise<string> {
    const response = await call(key, grant, "POST", "visitor", { name, email });
    const token = /cs_share_visitor=([^;]+)/.exec(response.headers.getSetCookie().join("\n"))?.[1];
    return `${grant}; cs_share_visitor=${token}`;
  }
  const couple = await visitor("Margaux Delacroix", "margaux@example.test");
  for (const photoId of photoIds.slice(0, 3)) await call(key, couple, "PUT", `feedback/${photoId}`, { picked: true });
  await call(key, couple, "PUT", `feedback/${photoIds[1]}`, { comment: "Our favourite! Could this one be a little warmer, and cropped closer for the album cover?" });
  await call(key, couple, "POST", "selection");
  const grandma = await visitor("Grandma Jo", null);
  await call(key, grandma, "PUT", `feedback/${photoIds[0]}`, { picked: true, comment: "A print of this for the hallway, please." });
  await call(key, grandma, "PUT", `feedback/${photoIds.at(-1)}`, { comment: "Who is the man on the left?" });
  return id;
}

/**
 * Writes a proofing share of these photos, owned by the e2e admin, straight into the server's
 * SQLite file, and answers its id, key and a grant cookie value for it (what admitting a browser
 * would give).
 */
export function insertProofingShare(photoIds: string[], options: { title: string; pickLimit: number | null }): { id: string; key: string; grant: string } {
  const file = new SQLite(path.resolve(E2E_DATA_DIRECTORY, "contact-sheet.sqlite"));
  file.pragma("busy_timeout = 5000");
  const id = randomUUID();
  const key = randomBytes(18).toString("base64url");
  try {
    const owner = file.prepare("select id from users where email = ?").get(E2E_ADMIN.email) as { id: string };
    const now = new Date().toISOString();
    file
      .prepare("insert into shares (id, key, owner_id, title, allow_picks, pick_limit, created_at, updated_at) values (?, ?, ?, ?, 1, ?, ?, ?)")
      .run(id, key, owner.id, options.title, options.pickLimit, now, now);
    const insert = file.prepare("insert into share_photos (share_id, photo_id, position) values (?, ?, ?)");
    photoIds.forEach((photoId, position) => insert.run(id, photoId, position));
  } finally {
    file.close();
  }

  return { id, key, grant: grantCookie(id) };
}
