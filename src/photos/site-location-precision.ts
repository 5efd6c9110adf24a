import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import { getSiteSettings } from "@/src/settings/site-settings.service";
import type { LocationPrecision } from "./location-precision";

/**
 * The site's default location precision (the admin's settings), for domains that round a photo's
 * coordinates themselves but may not read settings (share links): the same setting the metadata
 * policy reads, through the same in-memory copy.
 */
export async function siteLocationPrecision(db: DatabaseHandle): Promise<LocationPrecision> {
  return (await getSiteSettings(db)).locationPrecision;
}
