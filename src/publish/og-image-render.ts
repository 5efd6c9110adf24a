import sharp from "sharp";

/** The size every link preview (Open Graph, twitter:card summary_large_image) asks for. */
export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

/** Bump when the design below changes: every image's address (its hash) changes with it. */
export const OG_DESIGN_VERSION = 1;

/** The gap between tiles of a collage, in the background's colour. */
const GAP = 6;
const FALLBACK_BACKGROUND = "#1c1c1e";
const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/** One photo to draw: the bytes of one of its JPEG variants (never the original) and its dominant colour. */
export interface OgTile {
  jpeg: Buffer;
  width: number;
  height: number;
  dominantColor: string | null;
}

export interface OgRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A photo whose shape is this close to 1200x630 fills it (cropped a little); any other is letterboxed. */
const COVER_MIN_RATIO = 1.3;
const COVER_MAX_RATIO = 2.6;

function backgroundOf(colour: string | null): string {
  return colour && HEX_COLOUR.test(colour) ? colour : FALLBACK_BACKGROUND;
}

/**
 * Where each photo of a collage goes: one fills the frame; two side by side; three and four as one
 * large photo on the left and the others stacked on the right. Whole pixels, gaps between.
 */
export function collageRects(count: number): OgRect[] {
  if (count <= 1) return [{ left: 0, top: 0, width: OG_WIDTH, height: OG_HEIGHT }];
  if (count === 2) {
    const half = Math.floor((OG_WIDTH - GAP) / 2);
    return [
      { left: 0, top: 0, width: half, height: OG_HEIGHT },
      { left: half + GAP, top: 0, width: OG_WIDTH - half - GAP, height: OG_HEIGHT },
    ];
  }
  const stacked = Math.min(count, 4) - 1;
  const sideWidth = Math.round(OG_WIDTH / 3);
  const mainWidth = OG_WIDTH - sideWidth - GAP;
  const rects: OgRect[] = [{ left: 0, top: 0, width: mainWidth, height: OG_HEIGHT }];
  const each = Math.floor((OG_HEIGHT - GAP * (stacked - 1)) / stacked);
  for (let index = 0; index < stacked; index += 1) {
    const top = index * (each + GAP);
    // The last one takes the rounding left over, so the column ends exactly at the bottom edge.
    const height = index === stacked - 1 ? OG_HEIGHT - top : each;
    rects.push({ left: mainWidth + GAP, top, width: sideWidth, height });
  }
  return rects;
}

/** The smallest size a variant must have to fill `rect` without being enlarged (cover fit). */
export function neededSize(rect: { width: number; height: number }, sourceRatio: number): { width: number; height: number } {
  const scale = Math.max(rect.width / sourceRatio, rect.height);
  return { width: Math.ceil(scale * sourceRatio), height: Math.ceil(scale) };
}

async function coverTile(tile: OgTile, rect: OgRect): Promise<Buffer> {
  return sharp(tile.jpeg)
    .resize(rect.width, rect.height, { fit: "cover", position: sharp.strategy.attention })
    .toBuffer();
}

/** A photo of a shape far from the frame's: whole, centred, on its own dominant colour. */
async function letterboxTile(tile: OgTile, rect: OgRect): Promise<Buffer> {
  const background = backgroundOf(tile.dominantColor);
  return sharp(tile.jpeg)
    .resize(rect.width, rect.height, { fit: "contain", background })
    .flatten({ background })
    .toBuffer();
}

/**
 * The Open Graph image, 1200x630 JPEG, of one photo (filling the frame when its shape allows, else
 * letterboxed on its dominant colour) or a collage of up to four (each cover-cropped). sharp only;
 * no text is drawn (fonts on a server are not to be relied on: the title travels in og:title).
 * The output carries no metadata (sharp drops EXIF unless asked to keep it).
 */
export async function renderOgImage(tiles: OgTile[]): Promise<Buffer> {
  if (tiles.length === 0) throw new Error("An Open Graph image needs at least one photo");
  const shown = tiles.slice(0, 4);
  const rects = collageRects(shown.length);
  const background = shown.length === 1 ? backgroundOf(shown[0].dominantColor) : FALLBACK_BACKGROUND;
  const layers = await Promise.all(
    shown.map(async (tile, index) => {
      const rect = rects[index];
      const ratio = tile.width / tile.height;
      const fillsFrame = shown.length > 1 || (ratio >= COVER_MIN_RATIO && ratio <= COVER_MAX_RATIO);
      const input = fillsFrame ? await coverTile(tile, rect) : await letterboxTile(tile, rect);
      return { input, left: rect.left, top: rect.top };
    }),
  );
  return sharp({ create: { width: OG_WIDTH, height: OG_HEIGHT, channels: 3, background } })
    .composite(layers)
    .jpeg({ quality: 82, progressive: true, mozjpeg: true })
    .toBuffer();
}
