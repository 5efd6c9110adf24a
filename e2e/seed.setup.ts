import { test } from "@playwright/test";
import { seedTourAlbum } from "./seed-albums";
import { seedProofingShare } from "./seed-proofing";
import { seedPublicPhotos } from "./seed-photos";
import { writeSeededTour } from "./seeded-tour";

// Once per run, before the specs that read it (the "seed" project in playwright.config.ts): the
// state the page tour and the visitor specs look at. Each of them used to seed it again for itself.
test("seed the photos, albums and share links the specs read", async ({ browser }) => {
  test.setTimeout(180_000);
  const photoIds = await seedPublicPhotos(browser, 4);
  const tour = await seedTourAlbum(browser, photoIds);
  writeSeededTour({ photoIds, tourIds: { ...tour, shareId: await seedProofingShare(photoIds) } });
});
