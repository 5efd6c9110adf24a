import type { ShareRow } from "@/src/db/database";
import type { ShareDownloadRight } from "./share.types";

/**
 * The metadata policy (PRODUCT.md) for a share link's visitors, who are never the owner: the link's
 * switches decide whether camera, lens, exposure and date are shown (EXIF) and whether the location
 * is (off unless the owner turned it on for this link); downloads carry the same fields and never
 * serial numbers, maker notes, owner fields or embedded thumbnails (src/images/exif-filter.ts).
 */
export interface ShareMetadataPolicy {
  showsExif: boolean;
  showsLocation: boolean;
  download: ShareDownloadRight;
  offersZip: boolean;
}

export function getShareMetadataPolicy(share: Pick<ShareRow, "show_exif" | "show_location" | "download" | "allow_zip">): ShareMetadataPolicy {
  return {
    showsExif: share.show_exif === 1,
    showsLocation: share.show_location === 1,
    download: share.download,
    offersZip: share.download !== "none" && share.allow_zip === 1,
  };
}
