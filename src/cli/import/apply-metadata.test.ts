import { describe, expect, it } from "vitest";
import { applyImportMetadata, photoChangeFor, tagsFor } from "./apply-metadata";

describe("applying ImportMetadata through the API", () => {
  it("sends the editor's fields by their API names, and keywords plus a favourite as tags", async () => {
    const calls: unknown[] = [];
    const api = {
      updatePhoto: (id: string, change: Record<string, unknown>) => Promise.resolve(void calls.push(["PATCH", id, change])),
      addTags: (ids: string[], names: string[]) => Promise.resolve(void calls.push(["tags", ids, names])),
      setPhotoTags: (id: string, names: string[]) => Promise.resolve(void calls.push(["PUT tags", id, names])),
    };
    await applyImportMetadata(api, "p1", {
      title: "Rome",
      description: "From the hill",
      takenAt: "2019-05-03T14:32+02:00",
      location: { latitude: 41.9, longitude: 12.5 },
      tags: ["Italy", " Italy ", "Rome"],
      favourite: true,
      rating: 4,
      label: "red",
      orientation: 6,
    });
    expect(calls).toEqual([
      ["PATCH", "p1", { title: "Rome", caption: "From the hill", takenAt: "2019-05-03T14:32+02:00", location: { latitude: 41.9, longitude: 12.5 }, rating: 4, label: "red" }],
      ["tags", ["p1"], ["Italy", "Rome", "Favourite"]],
    ]);
  });

  it("sets an export sidecar's whole tag list (none too) instead of adding to what the file's keywords give", async () => {
    const calls: unknown[] = [];
    const api = {
      updatePhoto: () => Promise.resolve(),
      addTags: (ids: string[], names: string[]) => Promise.resolve(void calls.push(["tags", ids, names])),
      setPhotoTags: (id: string, names: string[]) => Promise.resolve(void calls.push(["PUT tags", id, names])),
    };
    await applyImportMetadata(api, "p1", { tags: ["Landscape"], tagsComplete: true });
    await applyImportMetadata(api, "p2", { tags: [], tagsComplete: true });
    await applyImportMetadata(api, "p3", { tags: [] });
    expect(calls).toEqual([
      ["PUT tags", "p1", ["Landscape"]],
      ["PUT tags", "p2", []],
    ]);
  });

  it("sends rating and label, but nothing for a sidecar's orientation alone or for no metadata at all", () => {
    expect(photoChangeFor({ rating: 5, label: "blue", orientation: 3 })).toEqual({ rating: 5, label: "blue" });
    expect(photoChangeFor({ orientation: 3 })).toBeNull();
    // An export's sidecar carries the owner's turn: sent as the editor sends it.
    expect(photoChangeFor({ rotation: 270 })).toEqual({ rotation: 270 });
    expect(photoChangeFor({})).toBeNull();
    expect(tagsFor({ favourite: false })).toEqual([]);
  });
});
