import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { findOgImage } from "./og-images";

/** Content-addressed: a new look is a new URL, so an answer never goes stale. */
const IMMUTABLE = "public, max-age=31536000, immutable";
/** The site's latest collage follows the newest public photos: shared as briefly as the gallery page (src/server/anonymous-pages.ts). */
const LATEST = "public, max-age=0, s-maxage=30, stale-while-revalidate=60";

/** GET /og/<path>: the stored (or just made) image, or 404. `X-Og-Image` says which, for tests and logs. */
export async function answerOgImage(db: DatabaseHandle, segments: string[]): Promise<Response> {
  const image = await findOgImage(db, segments);
  if (!image) throw new AppError("NOT_FOUND", "No such image.");
  return new Response(new Uint8Array(image.bytes), {
    status: 200,
    headers: {
      "Content-Type": "image/jpeg",
      "Content-Length": String(image.bytes.length),
      "Cache-Control": image.immutable ? IMMUTABLE : LATEST,
      ETag: `"og-${image.hash}"`,
      "X-Og-Image": image.rendered ? "rendered" : "stored",
    },
  });
}
