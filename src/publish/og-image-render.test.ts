import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { collageRects, neededSize, OG_HEIGHT, OG_WIDTH, renderOgImage, type OgTile } from "./og-image-render";

async function solid(width: number, height: number, colour: { r: number; g: number; b: number }, dominantColor: string | null = null): Promise<OgTile> {
  const jpeg = await sharp({ create: { width, height, channels: 3, background: colour } }).jpeg().toBuffer();
  return { jpeg, width, height, dominantColor };
}

async function pixelAt(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [data[offset], data[offset + 1], data[offset + 2]];
}

function near(actual: number[], expected: number[], tolerance = 12): boolean {
  return actual.every((value, index) => Math.abs(value - expected[index]) <= tolerance);
}

describe("collageRects", () => {
  it.each([1, 2, 3, 4])("lays out %i photos inside the frame, without overlap, reaching every edge", (count) => {
    const rects = collageRects(count);
    expect(rects).toHaveLength(count);
    for (const rect of rects) {
      expect(rect.left).toBeGreaterThanOrEqual(0);
      expect(rect.top).toBeGreaterThanOrEqual(0);
      expect(rect.left + rect.width).toBeLessThanOrEqual(OG_WIDTH);
      expect(rect.top + rect.height).toBeLessThanOrEqual(OG_HEIGHT);
      expect(Number.isInteger(rect.width) && Number.isInteger(rect.height)).toBe(true);
    }
    for (const [index, a] of rects.entries()) {
      for (const b of rects.slice(index + 1)) {
        const overlaps = a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
        expect(overlaps).toBe(false);
      }
    }
    expect(Math.max(...rects.map((rect) => rect.left + rect.width))).toBe(OG_WIDTH);
    expect(Math.max(...rects.map((rect) => rect.top + rect.height))).toBe(OG_HEIGHT);
  });
});

describe("neededSize", () => {
  it("asks for a variant that covers the place without enlarging", () => {
    expect(neededSize({ width: 1200, height: 630 }, 1.5)).toEqual({ width: 1200, height: 800 });
    expect(neededSize({ width: 400, height: 206 }, 2 / 3)).toEqual({ width: 400, height: 600 });
  });
});

describe("renderOgImage", () => {
  it("fills 1200x630 with a landscape photo, as a JPEG without metadata", async () => {
    const image = await renderOgImage([await solid(1600, 1067, { r: 200, g: 30, b: 30 })]);
    const meta = await sharp(image).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: OG_WIDTH, height: OG_HEIGHT });
    expect(meta.exif).toBeUndefined();
    expect(near(await pixelAt(image, 2, 2), [200, 30, 30])).toBe(true);
  });

  it("letterboxes a portrait photo on its dominant colour", async () => {
    const image = await renderOgImage([await solid(800, 1200, { r: 240, g: 240, b: 240 }, "#204080")]);
    expect(near(await pixelAt(image, 5, 315), [0x20, 0x40, 0x80])).toBe(true);
    expect(near(await pixelAt(image, 600, 315), [240, 240, 240])).toBe(true);
  });

  it("puts up to four photos in a collage, each in its own place", async () => {
    const colours = [
      { r: 220, g: 20, b: 20 },
      { r: 20, g: 220, b: 20 },
      { r: 20, g: 20, b: 220 },
      { r: 220, g: 220, b: 20 },
    ];
    const tiles = await Promise.all(colours.map((colour) => solid(1200, 800, colour)));
    const image = await renderOgImage([...tiles, await solid(1200, 800, { r: 0, g: 0, b: 0 })]);
    expect(await sharp(image).metadata()).toMatchObject({ width: OG_WIDTH, height: OG_HEIGHT });
    const rects = collageRects(4);
    for (const [index, rect] of rects.entries()) {
      const centre = await pixelAt(image, rect.left + Math.floor(rect.width / 2), rect.top + Math.floor(rect.height / 2));
      expect(near(centre, [colours[index].r, colours[index].g, colours[index].b]), `tile ${index}: ${centre.join(",")}`).toBe(true);
    }
  });

  it("refuses to make an image of nothing", async () => {
    await expect(renderOgImage([])).rejects.toThrow();
  });
});
