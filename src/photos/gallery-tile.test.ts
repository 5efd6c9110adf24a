import { describe, expect, it } from "vitest";
import { ANONYMOUS_VIEWER, type Viewer } from "@/src/access/viewer";
import { toGalleryTile } from "./gallery-tile";
import type { PhotoSummary } from "./photos.service";

const FOLDER = "/media/AAAAAAAAAAAAAAAA/variants/ab/abc/";
const OWNER: Viewer = { kind: "user", user: { id: "u1", email: "o@example.test", name: "O", role: "editor" } };

function photoOf(overrides: Partial<PhotoSummary> = {}): PhotoSummary {
  const variants: PhotoSummary["variants"] = [];
  for (const format of ["jpeg", "webp", "avif"] as const) {
    for (const width of [400, 800, 1200, 1600, 2400]) {
      if (format === "avif" && width > 1600) continue;
      variants.push({ format, width, height: Math.round(width / 1.5), url: `${FOLDER}${format}-${width}-d.${format === "jpeg" ? "jpg" : format}` });
    }
  }
  return { id: "abc", status: "ready", visibility: "public", title: "", altText: "", width: 3000, height: 2000, thumbhash: "XtcJ", dominantColor: "#123456", takenAt: null, variants, video: null, motionUrl: null, ...overrides };
}

describe("toGalleryTile", () => {
  it("keeps only AVIF up to the width a row can use, relative to the photo's folder, and one JPEG fallback", () => {
    const tile = toGalleryTile(photoOf(), ANONYMOUS_VIEWER);
    expect(tile.base).toBe(FOLDER);
    // 3:2 at the tallest row on a 2x screen needs 1080 px: 1200 is the last width sent.
    expect(tile.avif).toBe("avif-400-d.avif 400w, avif-800-d.avif 800w, avif-1200-d.avif 1200w");
    expect(tile.jpeg).toBe("jpeg-800-d.jpg 800w");
    expect(tile.ratio).toBe(1.5);
  });

  it("sends the JPEG srcset while the photo has no AVIF yet", () => {
    const photo = photoOf();
    const tile = toGalleryTile({ ...photo, variants: photo.variants.filter((variant) => variant.format !== "avif") }, ANONYMOUS_VIEWER);
    expect(tile.avif).toBe("");
    expect(tile.jpeg).toBe("jpeg-400-d.jpg 400w, jpeg-800-d.jpg 800w, jpeg-1200-d.jpg 1200w");
  });

  it("names the photo, and badges it only for a signed-in viewer when it is not public", () => {
    expect(toGalleryTile(photoOf({ takenAt: "2019-05-03T10:00:00Z" }), ANONYMOUS_VIEWER).name).toBe("Photo taken on 3 May 2019");
    expect(toGalleryTile(photoOf({ visibility: "private" }), OWNER).badge).toBe("Private");
    expect(toGalleryTile(photoOf({ visibility: "members" }), OWNER).badge).toBe("Members");
    expect(toGalleryTile(photoOf({ visibility: "public" }), OWNER).badge).toBeNull();
    expect(toGalleryTile(photoOf({ visibility: "unlisted" }), ANONYMOUS_VIEWER).badge).toBeNull();
  });

  it("gives a photo without dimensions or variants a 3:2 tile and no sources", () => {
    const tile = toGalleryTile(photoOf({ width: null, height: null, variants: [] }), ANONYMOUS_VIEWER);
    expect(tile).toMatchObject({ ratio: 1.5, base: "", avif: "", jpeg: "" });
  });
});

describe("toGalleryTile's width cap", () => {
  it("caps a tiny original at its largest variant, so the grid never stretches it into a blur", () => {
    // A 100 x 75 original has one 100 px variant per format; a 4:3 tile could grow to 480 px.
    const tiny: PhotoSummary["variants"] = (["jpeg", "webp", "avif"] as const).map((format) => ({ format, width: 100, height: 75, url: `${FOLDER}${format}-100-d.${format}` }));
    expect(toGalleryTile(photoOf({ width: 100, height: 75, variants: tiny }), ANONYMOUS_VIEWER).maxWidth).toBe(100);
  });

  it("leaves a photo whose variants cover the tallest row uncapped (and out of the page's payload)", () => {
    const tile = toGalleryTile(photoOf(), ANONYMOUS_VIEWER);
    expect(tile.maxWidth).toBeUndefined();
    expect(Object.keys(tile)).not.toContain("maxWidth");
  });
});

describe("a video's tile", () => {
  it("carries its length for the play badge, and says it is a video in its name", () => {
    const tile = toGalleryTile(photoOf({ altText: "Waves", video: { durationMs: 12_400, playableUrl: null } }), ANONYMOUS_VIEWER);
    expect(tile.duration).toBe("0:12");
    expect(tile.name).toBe("Waves, video, 0:12");
    expect(toGalleryTile(photoOf(), ANONYMOUS_VIEWER).duration).toBeUndefined();
  });

  it("badges a Live Photo whose clip plays, and says so in its name; a photo without a playable clip has neither", () => {
    const tile = toGalleryTile(photoOf({ altText: "Waves", motionUrl: "/media/k/variants/ab/abc/motion-1.mp4" }), ANONYMOUS_VIEWER);
    expect([tile.live, tile.name]).toEqual([true, "Waves, Live Photo"]);
    expect(toGalleryTile(photoOf({ altText: "Waves" }), ANONYMOUS_VIEWER)).not.toHaveProperty("live");
  });
});
