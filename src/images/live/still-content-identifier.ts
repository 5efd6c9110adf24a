import fs from "node:fs/promises";
import type { ImageType } from "../image-type-detector";
import { getExifTool } from "../raw/raw-exiftool";
import { cleanContentIdentifier } from "./content-identifier";

// Apple's maker notes start with this. Looked for in the file's first bytes before ExifTool is asked,
// so a photo from any other camera costs one read rather than an ExifTool run. An iPhone writes its
// EXIF near the start of a HEIC (a few kB in) and in the APP1 segment of a JPEG.
const APPLE_MAKER_NOTE = Buffer.from("Apple iOS\0", "latin1");
const HEAD_BYTES = 512 * 1024;

async function mayHaveAppleMakerNote(filePath: string): Promise<boolean> {
  const file = await fs.open(filePath, "r");
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).includes(APPLE_MAKER_NOTE);
  } finally {
    await file.close();
  }
}

/**
 * The content identifier of a Live Photo's still, or null for any other photo (and for one whose
 * identifier ExifTool cannot read or that is not a plausible one). Never throws.
 */
export async function readStillContentIdentifier(filePath: string, type: ImageType): Promise<string | null> {
  if (type !== "heic" && type !== "jpeg") return null;
  try {
    if (!(await mayHaveAppleMakerNote(filePath))) return null;
    const tags = (await (await getExifTool()).readRaw(filePath, { readArgs: ["-Apple:ContentIdentifier", "-fast"] })) as Record<string, unknown>;
    return cleanContentIdentifier(tags.ContentIdentifier);
  } catch {
    return null;
  }
}
