import { describe, expect, it } from "vitest";
import { toViewerSlide } from "./viewer-slide";

const variant = (format: "jpeg" | "webp" | "avif", width: number) => ({ format, width, height: width / 2, url: `/media/x/${width}.${format}` });
const photo = { id: "p1", altText: "", title: "", takenAt: null, placeName: "Italy" };

describe("toViewerSlide", () => {
  it("gives every WebP size, the largest's dimensions and the largest JPEG as the fallback", () => {
    const slide = toViewerSlide({ ...photo, variants: [variant("jpeg", 640), variant("jpeg", 2048), variant("webp", 640), variant("webp", 2048), variant("avif", 2048)] });
    expect(slide).toEqual({
      id: "p1",
      src: "/media/x/2048.jpeg",
      srcset: "/media/x/640.webp 640w, /media/x/2048.webp 2048w",
      msrc: "/media/x/640.webp",
      width: 2048,
      height: 1024,
      alt: "Photo taken in Italy",
      title: "",
      caption: "",
    });
  });

  it("falls back to JPEG sizes, and has nothing to show without variants", () => {
    expect(toViewerSlide({ ...photo, variants: [variant("jpeg", 640)] })?.srcset).toBe("/media/x/640.jpeg 640w");
    expect(toViewerSlide({ ...photo, variants: [] })).toBeNull();
  });

  it("carries the title and caption as written, for the viewer's caption line", () => {
    const slide = toViewerSlide({ ...photo, title: "Dawn <b>over</b> Siena", caption: "From the tower & the wall", variants: [variant("jpeg", 640)] });
    expect(slide).toMatchObject({ title: "Dawn <b>over</b> Siena", caption: "From the tower & the wall" });
  });

  it("plays a video's playable copy over its poster, and shows only the poster until the copy is made", () => {
    const variants = [variant("jpeg", 640)];
    expect(toViewerSlide({ ...photo, variants, video: { durationMs: 1000, playableUrl: "/media/x/playable-1.mp4" } })).toMatchObject({
      src: "/media/x/640.jpeg",
      type: "video",
      video: { src: "/media/x/playable-1.mp4" },
    });
    expect(toViewerSlide({ ...photo, variants, video: { durationMs: 1000, playableUrl: null } })?.video).toBeUndefined();
  });

  it("lays a Live Photo's clip over the still (an image slide), and a video keeps its own player", () => {
    const variants = [variant("jpeg", 640)];
    const live = toViewerSlide({ ...photo, variants, motionUrl: "/media/x/motion-1.mp4" });
    expect(live).toMatchObject({ src: "/media/x/640.jpeg", motion: { src: "/media/x/motion-1.mp4" } });
    expect(live?.type).toBeUndefined();
    expect(toViewerSlide({ ...photo, variants, motionUrl: null })?.motion).toBeUndefined();
  });
});
