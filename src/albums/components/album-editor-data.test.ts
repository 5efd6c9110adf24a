import { describe, expect, it } from "vitest";
import type { PhotoSummary } from "@/src/photos/photos.service";
import { describeAlbumPhotos, describePhotoCount, toAlbumCover } from "./album-card-data";
import { type EditorAlbum, parentChoices, toEditorPhoto } from "./album-editor-data";

function album(id: string, title: string, parentId: string | null): EditorAlbum {
  return { id, slug: id, title, description: "", visibility: "private", parentId, sort: "manual", photoCount: 0, subAlbumPhotoCount: 0, coverPhotoId: null, cover: null, updatedAt: "" };
}

const photo: PhotoSummary = {
  id: "p1", status: "ready", visibility: "members", title: "", altText: "A lighthouse", width: 1200, height: 800, thumbhash: null, dominantColor: "#123456", takenAt: null, video: null, motionUrl: null,
  variants: [
    { format: "jpeg", width: 1600, height: 1067, url: "/media/p1/1600.jpg" },
    { format: "jpeg", width: 400, height: 267, url: "/media/p1/400.jpg" },
    { format: "jpeg", width: 800, height: 533, url: "/media/p1/800.jpg" },
    { format: "avif", width: 400, height: 267, url: "/media/p1/400.avif" },
    { format: "webp", width: 200, height: 133, url: "/media/p1/200.webp" },
  ],
};

describe("parentChoices", () => {
  it("lists albums as a tree, indented by depth, without the album itself and what is inside it", () => {
    const albums = [album("b", "Berlin", null), album("a", "Autumn", null), album("a1", "Leaves", "a"), album("a2", "Trees", "a1"), album("x", "Elsewhere", "not-mine")];
    expect(parentChoices(albums, null).map(({ id, label }) => ({ id, label }))).toEqual([
      { id: "a", label: "Autumn" },
      { id: "a1", label: "\u2003Leaves (Autumn)" },
      { id: "a2", label: "\u2003\u2003Trees (Autumn › Leaves)" },
      { id: "b", label: "Berlin" },
      { id: "x", label: "Elsewhere" },
    ]);
    expect(parentChoices(albums, "a1").map((choice) => choice.id)).toEqual(["a", "b", "x"]);
  });
});

describe("covers and thumbnails", () => {
  it("gives a card every JPEG up to one large enough, smallest first, with a 400 px fallback", () => {
    expect(toAlbumCover(photo)).toEqual({
      name: "A lighthouse",
      color: "#123456",
      thumbhash: null,
      src: "/media/p1/400.jpg",
      jpeg: "/media/p1/400.jpg 400w, /media/p1/800.jpg 800w, /media/p1/1600.jpg 1600w",
      avif: "/media/p1/400.avif 400w",
    });
    expect(toAlbumCover({ ...photo, variants: [] })).toBeNull();
  });

  it("gives the editor the smallest JPEG or WebP at least 320 px wide, and the visibility as a badge", () => {
    expect(toEditorPhoto(photo)).toEqual({ id: "p1", name: "A lighthouse", color: "#123456", thumbnail: "/media/p1/400.jpg", badge: "Members" });
    expect(toEditorPhoto({ ...photo, visibility: "public", variants: [] })).toMatchObject({ thumbnail: null, badge: null });
  });

  it("counts in words", () => {
    expect([0, 1, 2, 1234].map(describePhotoCount)).toEqual(["No photos yet", "1 photo", "2 photos", "1,234 photos"]);
  });

  it("counts a parent's sub-albums' photos instead of saying it has none", () => {
    const said = [
      [0, 0], [3, 0], [0, 1], [0, 1234], [3, 40],
    ].map(([photoCount, subAlbumPhotoCount]) => describeAlbumPhotos({ photoCount, subAlbumPhotoCount }));
    expect(said).toEqual(["No photos yet", "3 photos", "1 photo in sub-albums", "1,234 photos in sub-albums", "3 photos · 40 in sub-albums"]);
  });
});
