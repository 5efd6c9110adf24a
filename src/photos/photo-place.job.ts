import type { Transaction } from "kysely";
import { getDb } from "@/src/db/client";
import type { Database, JobRow } from "@/src/db/database";
import { insertJob } from "@/src/jobs/jobs.repository";
import { registerJobHandler } from "@/src/jobs/worker";
import { geocodePlace } from "@/src/places/place-geocoder";
import { announcePhotosChanged } from "./photo-changes";
import { PLACE_LOOKUP_JOB } from "./photo-job-kinds";
import { updatePlaceAtCoordinates } from "./photo-places.repository";
import { findPhotoByIdEvenTrashed } from "./photos.repository";

/**
 * After the owner set coordinates by hand: the worker works out their time zone, and the place in
 * words unless the owner typed it (names left empty by the correction are filled, typed ones kept).
 * The gazetteer is loaded in the worker, never by a request.
 */
export async function queuePlaceLookup(transaction: Transaction<Database>, photoId: string, now: string): Promise<void> {
  // With a turn's render (1): the owner is waiting to see it; before larger sizes of uploads (5).
  await insertJob(transaction, { kind: PLACE_LOOKUP_JOB, photoId, priority: 1 }, now);
}

async function lookUpPlace(job: JobRow): Promise<void> {
  const photo = job.photo_id ? await findPhotoByIdEvenTrashed(getDb(), job.photo_id) : undefined;
  if (!photo || photo.gps_latitude === null || photo.gps_longitude === null) return;
  const coordinates = { latitude: photo.gps_latitude, longitude: photo.gps_longitude };
  const place = geocodePlace(coordinates.latitude, coordinates.longitude);
  const names = { place_city: place?.city ?? null, place_region: place?.region ?? null, place_country_code: place?.countryCode ?? null };
  await updatePlaceAtCoordinates(getDb(), photo.id, coordinates, place?.timeZone ?? null, names);
  announcePhotosChanged([photo.id]);
}

export function registerPlaceLookupJob(): void {
  registerJobHandler(PLACE_LOOKUP_JOB, { run: lookUpPlace });
}
