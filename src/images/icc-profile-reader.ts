type Xyz = readonly [number, number, number];

// sRGB's primaries as an ICC v2/v4 profile stores them: adapted to the D50 connection space.
const SRGB_COLORANTS: readonly [Xyz, Xyz, Xyz] = [
  [0.4361, 0.2225, 0.0139],
  [0.3851, 0.7169, 0.0971],
  [0.1431, 0.0606, 0.7141],
];

// Display P3 and Adobe RGB span about 1.35× sRGB's area on the xy chromaticity diagram; sRGB
// profiles from different vendors differ from each other by well under 1 %.
const WIDE_GAMUT_AREA_RATIO = 1.1;

const MAXIMUM_TAG_COUNT = 256;

/**
 * Tells whether an embedded ICC profile describes an RGB space noticeably wider than sRGB (Display
 * P3, Adobe RGB, ProPhoto, Rec. 2020), judged from its red, green and blue colorant tags. Photos
 * with such a profile keep a wide gamut (Display P3); everything else is converted to sRGB.
 * Malformed, non-RGB (grey, CMYK) and table-only profiles count as not wide, so those photos are
 * converted to sRGB, which is always safe.
 */
export function isWideGamutProfile(profile: Uint8Array | undefined): boolean {
  const colorants = profile ? readRgbColorants(profile) : null;
  if (!colorants) return false;
  return gamutArea(colorants) > gamutArea(SRGB_COLORANTS) * WIDE_GAMUT_AREA_RATIO;
}

/** The `rXYZ`, `gXYZ`, `bXYZ` tags of an RGB matrix/TRC profile, or null when absent or malformed. */
function readRgbColorants(profile: Uint8Array): [Xyz, Xyz, Xyz] | null {
  if (profile.length < 132) return null;
  const view = new DataView(profile.buffer, profile.byteOffset, profile.byteLength);
  if (readSignature(view, 16) !== "RGB ") return null;
  const tagCount = view.getUint32(128);
  if (tagCount > MAXIMUM_TAG_COUNT || 132 + tagCount * 12 > profile.length) return null;

  const tags = new Map<string, Xyz>();
  for (let index = 0; index < tagCount; index++) {
    const entry = 132 + index * 12;
    const signature = readSignature(view, entry);
    if (signature !== "rXYZ" && signature !== "gXYZ" && signature !== "bXYZ") continue;
    const offset = view.getUint32(entry + 4);
    if (offset + 20 > profile.length || readSignature(view, offset) !== "XYZ ") return null;
    tags.set(signature, [
      view.getInt32(offset + 8) / 65536,
      view.getInt32(offset + 12) / 65536,
      view.getInt32(offset + 16) / 65536,
    ]);
  }
  const red = tags.get("rXYZ");
  const green = tags.get("gXYZ");
  const blue = tags.get("bXYZ");
  return red && green && blue ? [red, green, blue] : null;
}

/** Area of the triangle the three primaries span on the CIE xy chromaticity diagram. */
function gamutArea([red, green, blue]: readonly [Xyz, Xyz, Xyz]): number {
  const [rx, ry] = toChromaticity(red);
  const [gx, gy] = toChromaticity(green);
  const [bx, by] = toChromaticity(blue);
  return Math.abs((gx - rx) * (by - ry) - (bx - rx) * (gy - ry)) / 2;
}

function toChromaticity([x, y, z]: Xyz): [number, number] {
  const sum = x + y + z;
  return sum > 0 ? [x / sum, y / sum] : [0, 0];
}

function readSignature(view: DataView, offset: number): string {
  if (offset + 4 > view.byteLength) return "";
  return String.fromCharCode(
    view.getUint8(offset),
    view.getUint8(offset + 1),
    view.getUint8(offset + 2),
    view.getUint8(offset + 3),
  );
}
