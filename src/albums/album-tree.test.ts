import { describe, expect, it } from "vitest";
import { albumPickerChoices, orderAlbumsAsTree, type TreeAlbum } from "./album-tree";

function album(id: string, title: string, parentId: string | null = null): TreeAlbum {
  return { id, title, parentId };
}

// Listed in creation order, as the service answers: children before their parents, two "2024"s.
const albums = [
  album("t24", "2024", "travel"),
  album("f24", "2024", "family"),
  album("tuscany", "Tuscany 2008", "italy"),
  album("travel", "Travel"),
  album("italy", "Italy", "travel"),
  album("family", "Family"),
];

describe("orderAlbumsAsTree", () => {
  it("puts each album right under its parent, siblings by title, with its depth and path", () => {
    expect(orderAlbumsAsTree(albums).map(({ album: { id }, depth, path }) => ({ id, depth, path }))).toEqual([
      { id: "family", depth: 0, path: ["Family"] },
      { id: "f24", depth: 1, path: ["Family", "2024"] },
      { id: "travel", depth: 0, path: ["Travel"] },
      { id: "t24", depth: 1, path: ["Travel", "2024"] },
      { id: "italy", depth: 1, path: ["Travel", "Italy"] },
      { id: "tuscany", depth: 2, path: ["Travel", "Italy", "Tuscany 2008"] },
    ]);
  });

  it("leaves out the excluded album and everything under it", () => {
    expect(orderAlbumsAsTree(albums, { exclude: "italy" }).map(({ album: { id } }) => id)).toEqual(["family", "f24", "travel", "t24"]);
  });

  it("starts an album whose parent is not in the list at the top, and never loops on a cycle", () => {
    const odd = [album("orphan", "Orphan", "someone-elses"), album("a", "A", "b"), album("b", "B", "a"), album("self", "Self", "self")];
    expect(orderAlbumsAsTree(odd).map(({ album: { id }, depth }) => [id, depth])).toEqual([
      ["orphan", 0],
      ["self", 0],
    ]);
  });

  it("keeps one order for siblings of the same title", () => {
    const twins = [album("z", "Same"), album("a", "Same")];
    expect(orderAlbumsAsTree(twins).map(({ album: { id } }) => id)).toEqual(["a", "z"]);
  });
});

describe("albumPickerChoices", () => {
  it("indents by depth and names the albums above a nested one, so two 2024s differ", () => {
    expect(albumPickerChoices(albums)).toEqual([
      { id: "family", title: "Family", label: "Family", path: "Family" },
      { id: "f24", title: "2024", label: "\u20032024 (Family)", path: "Family › 2024" },
      { id: "travel", title: "Travel", label: "Travel", path: "Travel" },
      { id: "t24", title: "2024", label: "\u20032024 (Travel)", path: "Travel › 2024" },
      { id: "italy", title: "Italy", label: "\u2003Italy (Travel)", path: "Travel › Italy" },
      { id: "tuscany", title: "Tuscany 2008", label: "\u2003\u2003Tuscany 2008 (Travel › Italy)", path: "Travel › Italy › Tuscany 2008" },
    ]);
  });
});
