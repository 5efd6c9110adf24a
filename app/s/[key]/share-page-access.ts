import "server-only";
import { cookies } from "next/headers";
import { redirect, unauthorized } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/src/db/client";
import type { ShareRow } from "@/src/db/database";
import { decideShareAccess, type ShareAccess } from "@/src/shares/share-access";
import { sharePath } from "@/src/shares/share-key";
import { SHARE_GRANT_COOKIE } from "@/src/shares/share.types";

/** The gate's answer for this request's browser, read once per request (the layout and the page share it). */
export const findSharePageAccess = cache(async (key: string): Promise<ShareAccess> => {
  const grant = (await cookies()).get(SHARE_GRANT_COOKIE)?.value;
  return decideShareAccess(getDb(), key, grant, new Date());
});

/**
 * The share a page may show, or the way there: a browser the link may admit is sent through
 * /s/[key]/enter (a page cannot set its cookie) and back to `path`; it comes back marked
 * `entered=1`, and if it is still not admitted then, it keeps no cookies and gets the 401 page
 * saying so instead of a loop. Every refusal is `unauthorized()`: 401, the branded page.
 */
export async function requireSharePage(key: string, path: string, wasEntered: boolean): Promise<ShareRow> {
  const access = await findSharePageAccess(key);
  if (access.kind === "granted") return access.share;
  if (access.kind === "admissible" && !wasEntered) redirect(`${sharePath(key)}/enter?next=${encodeURIComponent(path)}`);
  unauthorized();
}
