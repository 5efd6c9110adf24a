import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import type { Viewer } from "@/src/access/viewer";
import { AppError } from "@/src/errors/app-error";
import { getOriginalForViewer } from "./photos.service";

/** The files kept beside a photo's original: a RAW+JPEG pair's RAW, a motion photo's clip. */
export type CompanionKind = "raw" | "motion";

/** A stored file to hand out as a download. */
export interface CompanionDownload {
  key: string;
  fileName: string;
  contentType: string;
}

/**
 * A photo's companion file for this viewer, under the original's rule: its owner and admins only
 * (403 for others who may see the photo, 404 for those who may not); 404 when the photo has none.
 * The clip carries whatever the phone wrote into it (a location among it), like the original.
 */
export async function getCompanionForViewer(db: DatabaseHandle, viewer: Viewer, id: string, kind: CompanionKind): Promise<CompanionDownload> {
  const { photo } = await getOriginalForViewer(db, viewer, id);
  if (kind === "raw") {
    if (!photo.raw_companion_key) throw new AppError("NOT_FOUND", "This photo has no RAW file.");
    return { key: photo.raw_companion_key, fileName: photo.raw_companion_name ?? "photo.raw", contentType: "application/octet-stream" };
  }
  if (!photo.motion_clip_key) throw new AppError("NOT_FOUND", "This photo has no motion clip.");
  return { key: photo.motion_clip_key, fileName: `${photo.original_name.replace(/\.[^.]*$/, "") || "photo"}.mp4`, contentType: "video/mp4" };
}
