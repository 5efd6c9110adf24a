import { getDb, type DatabaseHandle } from "@/src/db/client";
import type { RecurringJob } from "@/src/jobs/recurring-jobs";
import { geocodePlace } from "@/src/places/place-geocoder";
import { announcePhotosChanged } from "./photo-changes";
import { PLACE_BACKFILL_JOB } from "./photo-job-kinds";
import { listPhotosWithUnnamedPlace, nameUnnamedPlace } from "./photo-places.repository";

// Photos processed before places were stored (migration 2026-12-01T0600) have coordinates and no
// place. This names them in the worker, in batches, from the same offline geocoder processing uses,
// never in a web request. Resumable without a record of its own: what is left is exactly the photos
// with coordinates and place_source null, so a run cut short carries on where it stopped next time.
// A place set by hand is never touched (its place_source is "manual"; the UPDATE checks it again).

/** Photos read and named per batch: a batch geocodes in well under a second (bench:places: ≥ 5,000 a second). */
export const PLACE_BACKFILL_BATCH = 500;

export interface PlaceBackfillProgress {
  /** Photos looked at so far in this run. */
  looked: number;
  /** Of those, the ones given a place. */
  named: number;
}

/**
 * Names every photo with coordinates and no place, in batches of `batchSize` by id; `onBatch` hears
 * the running totals after each. Coordinates that name no place (0,0 without a fix) are left as
 * they are and looked at again by the next run, which costs nothing: no gazetteer is loaded for them.
 */
export async function backfillPlaces(
  db: DatabaseHandle,
  options: { batchSize?: number; onBatch?: (progress: PlaceBackfillProgress) => void } = {},
): Promise<PlaceBackfillProgress> {
  const batchSize = options.batchSize ?? PLACE_BACKFILL_BATCH;
  const progress: PlaceBackfillProgress = { looked: 0, named: 0 };
  let afterId: string | null = null;
  for (;;) {
    const batch = await listPhotosWithUnnamedPlace(db, afterId, batchSize);
    if (batch.length === 0) break;
    const namedInBatch: string[] = [];
    for (const photo of batch) {
      const place = geocodePlace(photo.gps_latitude, photo.gps_longitude);
      if (place === null) continue;
      const columns = { place_city: place.city, place_region: place.region, place_country_code: place.countryCode, place_time_zone: place.timeZone };
      if (await nameUnnamedPlace(db, photo, columns)) namedInBatch.push(photo.id);
    }
    progress.looked += batch.length;
    progress.named += namedInBatch.length;
    // Lists and /places' remembered counts show the new places at once; the map renames those photos' groups.
    if (namedInBatch.length > 0) announcePhotosChanged(namedInBatch);
    options.onBatch?.({ ...progress });
    afterId = batch[batch.length - 1].id;
    if (batch.length < batchSize) break;
  }
  return progress;
}

/**
 * Daily, once across instances (src/jobs/recurring-jobs.ts): the first run comes minutes after the
 * upgrade that brought places; later ones find only photos whose place could not be named.
 */
export const placeBackfillJob: RecurringJob = {
  kind: PLACE_BACKFILL_JOB,
  everyMs: 24 * 60 * 60 * 1000,
  run: async () => void (await backfillPlaces(getDb())),
};
