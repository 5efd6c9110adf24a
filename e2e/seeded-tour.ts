import fs from "node:fs";
import path from "node:path";
import { E2E_DATA_DIRECTORY } from "./constants";
import type { TourIds } from "./seed-albums";

/**
 * What the "seed" project (e2e/seed.setup.ts) made once per server run for every spec that only
 * reads it: the public photos (tagged as seed-photos.ts says), the tour's albums and share links,
 * and a proofing share with two visitors' picks. Kept in the server's data folder, which is emptied
 * at each start, so it never outlives the database it names.
 */
export interface SeededTour {
  /** The seeded public photos, oldest first (the first is the iPhone 6 one, from 2015). */
  photoIds: string[];
  /** The ids the page tour's paths are made from; its shareId is the proofing share. */
  tourIds: TourIds;
}

const SEEDED_TOUR_FILE = path.resolve(E2E_DATA_DIRECTORY, "seeded-tour.json");

export function writeSeededTour(seeded: SeededTour): void {
  fs.writeFileSync(SEEDED_TOUR_FILE, JSON.stringify(seeded));
}

/** The seed project's state; specs that use it run after that project (playwright.config.ts). */
export function readSeededTour(): SeededTour {
  if (!fs.existsSync(SEEDED_TOUR_FILE)) {
    throw new Error(`${SEEDED_TOUR_FILE} is missing: the "seed" project (e2e/seed.setup.ts) did not run first (was --no-deps given?)`);
  }
  return JSON.parse(fs.readFileSync(SEEDED_TOUR_FILE, "utf8")) as SeededTour;
}
