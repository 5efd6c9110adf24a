import "server-only";
import { cookies } from "next/headers";
import { unauthorized } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/src/db/client";
import type { ShareRow } from "@/src/db/database";
import { decideShareAccess, type ShareAccess } from "@/src/shares/share-access";
import { SHARE_GRANT_COOKIE } from "@/src/shares/share.types";

/** The gate's answer for this request's browser, read once per request (the layout and the page share it). */
export const findSharePageAccess = cache(async (key: string): Promise<ShareAccess> => {
  const grant = (await cookies()).get(SHARE_GRANT_COOKIE)?.value;
  return decideShareAccess(getDb(), key, grant, new Date());
});

/**
 * The share a page may show. Every other answer is `unauthorized()`: 401, the branded page, which
 * for a browser the link may still admit offers the "View photos" form (POST /s/[key]/api/enter). A
 * page never admits on its own: a GET is what link-preview bots and mail scanners send, and only a
 * person's POST counts a view (SECURITY.md 59).
 */
export async function requireSharePage(key: string): Promise<ShareRow> {
  const access = await findSharePageAccess(key);
  if (access.kind === "granted") return access.share;
  unauthorized();
}
