import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { GalleryTile } from "../gallery-tile";
import { PhotoGrid } from "./photo-grid";

vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn() }) }));

function tileOf(index: number, overrides: Partial<GalleryTile> = {}): GalleryTile {
  return {
    id: `photo-${index}`,
    ratio: index % 3 === 2 ? 0.75 : 1.333,
    name: `Photo ${index}`,
    color: "#445566",
    thumbhash: null,
    badge: null,
    base: `/media/k/variants/p${index}/`,
    avif: "avif-400.avif 400w, avif-800.avif 800w",
    jpeg: "jpeg-800.jpg 800w",
    ...overrides,
  };
}

/** The grid's server markup, one string per tile (its link and picture). */
function renderTiles(tiles: GalleryTile[]): string[] {
  const html = renderToStaticMarkup(<PhotoGrid tiles={tiles} />);
  return [...html.matchAll(/<a [^>]*data-testid="grid-photo".*?<\/a>/g)].map((match) => match[0]);
}

describe("PhotoGrid", () => {
  const tiles = renderTiles(Array.from({ length: 30 }, (_unused, index) => tileOf(index)));

  it("never lazy-loads a phone's first screen, and fetches its two largest images, one of them the LCP, at high priority", () => {
    // 4:3, 4:3 and 3:4 rows, all the same height: the two landscapes of row 1 are the largest
    // (grid-loading.ts); a phone's first screen holds 8 such rows.
    for (const tile of tiles.slice(0, 2)) {
      expect(tile).toContain('fetchPriority="high"');
      expect(tile).toContain('loading="eager"');
    }
    for (const tile of tiles.slice(2, 24)) {
      expect(tile).not.toContain("fetchPriority");
      expect(tile).toContain('loading="eager"');
    }
  });

  it("lazy-loads the tiles below a phone's first screen", () => {
    const lazy = tiles.filter((tile) => tile.includes('loading="lazy"'));
    expect(lazy).toHaveLength(6);
    expect(tiles.at(-1)).toContain('loading="lazy"');
    for (const tile of lazy) expect(tile).not.toContain("fetchPriority");
  });

  it("gives every tile its shape before a byte of its image arrives, so nothing shifts", () => {
    for (const tile of tiles) expect(tile).toMatch(/style="--ar:[0-9.]+;/);
  });

  it("sizes each image for the phone's rows and the larger screens' rows", () => {
    expect(tiles[0]).toContain('sizes="(max-width:40rem) 200px,400px"');
  });

  it("stops a tiny photo at its own width, centred in its row, instead of stretching it", () => {
    const [tiny, large] = renderTiles([tileOf(0, { maxWidth: 100 }), tileOf(1)]);
    expect(tiny).toMatch(/class="grid-tile grid-tile-capped" style="--ar:1.333;max-width:100px;/);
    expect(large).not.toMatch(/style="[^"]*max-width/);
  });

  it("caps the frame, not the tile inside it, when something is drawn over the tile", () => {
    const html = renderToStaticMarkup(<PhotoGrid tiles={[tileOf(0, { maxWidth: 100 })]} renderTileExtra={() => <button type="button">Pick</button>} />);
    expect(html).toMatch(/<div class="grid-tile-frame grid-tile-capped" style="--ar:1.333;max-width:100px">/);
    expect(html).toMatch(/<a [^>]*class="grid-tile" style="--ar:1.333;background-color/);
  });
});
