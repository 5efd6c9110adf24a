// bench:lighthouse – a gallery of a few hundred photos of real sizes, fast: two phone-sized JPEGs
// (4000x3000 landscape, 3000x4000 portrait, cut from a corpus photo by sharp) go through the app's
// own image pipeline once; every seeded photo is a row (insertPhoto, insertVariants) whose variant
// files are hard links to one sample's files, so 300 photos cost no more disk than two.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import sharp from "sharp";
import type { Database, NewPhotoRow, PhotoVariantRow } from "@/src/db/database";
import { migrateToLatest } from "@/src/db/migrate";
import { decodePhoto } from "@/src/images/photo-decoder";
import type { PhotoMetadata } from "@/src/images/photo-metadata-reader";
import { makePlaceholder, type Placeholder } from "@/src/images/placeholder-maker";
import { DEFAULT_PROCESSING_LIMITS } from "@/src/images/processing-limits";
import { type EncodedVariant, encodeVariants } from "@/src/images/variant-encoder";
import { cameraSlug, lensSlug } from "@/src/photos/camera-slug";
import { newPublicationKey } from "@/src/photos/photo-publication";
import { insertPhoto, insertVariants } from "@/src/photos/photos.repository";
import { hashPassword } from "@/src/users/password";
import { buildNewUser, insertUser } from "@/src/users/users.repository";
import { createRandom } from "./scale-seed";

const CORPUS_PHOTO = path.resolve(import.meta.dirname, "../../../shared/corpus/exif-samples/jpg/mobile/HMD_Nokia_8.3_5G.jpg");
const SHAPES = [
  { name: "landscape", width: 4000, height: 3000 },
  { name: "portrait", width: 3000, height: 4000 },
] as const;
const FILE_EXTENSIONS = { jpeg: "jpg", webp: "webp", avif: "avif" } as const;
const YEAR_MS = 365.25 * 24 * 3600 * 1000;

export const LIGHTHOUSE_EDITOR = { email: "lighthouse-editor@example.test", password: "lighthouse-editor-password-123" };
/** The words search is measured with: every third photo's title holds it. */
export const SEARCH_WORD = "harbour";

interface Sample {
  width: number;
  height: number;
  metadata: PhotoMetadata;
  placeholder: Placeholder;
  variants: EncodedVariant[];
  /** Where each variant's bytes were written once, in the order of `variants`. */
  files: string[];
}

export interface LighthouseGallery {
  /** Every photo id, newest first; all public and processed. */
  photoIds: string[];
  /** The year most photos fall in (for /years/[key]). */
  seedSeconds: number;
}

/** One corpus photo cut to `shape`, then decoded and encoded as the worker does (all three phases). */
async function processSample(directory: string, shape: (typeof SHAPES)[number]): Promise<Sample> {
  const source = path.join(directory, `${shape.name}.jpg`);
  await sharp(CORPUS_PHOTO).rotate().resize(shape.width, shape.height, { fit: "cover" }).withMetadata().jpeg({ quality: 88 }).toFile(source);
  const decoded = await decodePhoto(source, "jpeg", DEFAULT_PROCESSING_LIMITS);
  const variants: EncodedVariant[] = [];
  for (const phase of ["visible", "full", "avif"] as const) variants.push(...(await encodeVariants(decoded, phase, DEFAULT_PROCESSING_LIMITS)));
  const files = variants.map((variant) => {
    const file = path.join(directory, `${shape.name}-${variant.format}-${variant.width}.${FILE_EXTENSIONS[variant.format]}`);
    fs.writeFileSync(file, variant.bytes);
    return file;
  });
  return { width: decoded.originalWidth, height: decoded.originalHeight, metadata: decoded.metadata, placeholder: await makePlaceholder(variants[0].bytes), variants, files };
}

/**
 * Migrates a fresh SQLite database in `dataDirectory`, adds the editor who owns everything and
 * `count` public, processed photos (two in three landscape), spread over three years.
 */
export async function seedLighthouseGallery(dataDirectory: string, count: number): Promise<LighthouseGallery> {
  const startedAt = performance.now();
  const sampleDirectory = path.join(dataDirectory, "lighthouse-samples");
  fs.mkdirSync(sampleDirectory, { recursive: true });
  const samples = await Promise.all(SHAPES.map((shape) => processSample(sampleDirectory, shape)));

  const file = new SQLite(path.join(dataDirectory, "contact-sheet.sqlite"));
  file.pragma("journal_mode = WAL");
  file.pragma("synchronous = OFF");
  file.pragma("foreign_keys = ON");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
  try {
    await migrateToLatest(db);
    const now = new Date().toISOString();
    const editor = buildNewUser({ email: LIGHTHOUSE_EDITOR.email, name: "Lighthouse Editor", role: "editor", passwordHash: await hashPassword(LIGHTHOUSE_EDITOR.password), now });
    await insertUser(db, editor);

    const random = createRandom(34);
    const newestMs = Date.now() - 3_600_000;
    const photos: Array<{ row: NewPhotoRow & { id: string; sort_at: string }; variants: PhotoVariantRow[]; sample: Sample }> = [];
    for (let index = 0; index < count; index += 1) {
      const sample = samples[index % 3 === 2 ? 1 : 0];
      const id = randomUUID();
      const takenAt = new Date(newestMs - (index / count) * 3 * YEAR_MS - random() * 3_600_000).toISOString();
      const { exif } = sample.metadata;
      const prefix = `variants/${id.slice(0, 2)}/${id}/`;
      photos.push({
        sample,
        row: {
          id,
          owner_id: editor.id,
          sha256: id.replaceAll("-", "").padEnd(64, "0"),
          status: "ready",
          failure_reason: null,
          visibility: "public",
          original_key: `originals/${id.slice(0, 2)}/${id}`,
          original_name: `IMG_${String(index).padStart(4, "0")}.jpg`,
          original_type: "jpeg",
          original_size: 3_400_000,
          width: sample.width,
          height: sample.height,
          title: index % 3 === 0 ? `${SEARCH_WORD[0].toUpperCase()}${SEARCH_WORD.slice(1)} at dusk ${index}` : "",
          alt_text: `A seeded ${sample.width > sample.height ? "landscape" : "portrait"} photo, number ${index}`,
          taken_at: takenAt,
          camera_make: exif.cameraMake,
          camera_model: exif.cameraModel,
          lens: exif.lens,
          camera_slug: cameraSlug(exif.cameraMake, exif.cameraModel),
          lens_slug: lensSlug(exif.lens),
          focal_length: exif.focalLength,
          aperture: exif.aperture,
          exposure_time: exif.exposureTime,
          iso: exif.iso,
          gps_latitude: null,
          gps_longitude: null,
          gps_altitude: null,
          thumbhash: sample.placeholder.thumbhash,
          dominant_color: sample.placeholder.dominantColor,
          publication_key: newPublicationKey(),
          allow_download: null,
          sort_at: takenAt,
          created_at: now,
          updated_at: now,
        },
        variants: sample.variants.map((variant) => ({
          photo_id: id,
          format: variant.format,
          width: variant.width,
          height: variant.height,
          storage_key: `${prefix}${variant.format}-${variant.width}-${id.slice(0, 8)}.${FILE_EXTENSIONS[variant.format]}`,
          byte_size: variant.bytes.length,
        })),
      });
    }
    await db.transaction().execute(async (transaction) => {
      for (const photo of photos) await insertPhoto(transaction, photo.row);
      await insertVariants(transaction, photos.flatMap((photo) => photo.variants));
    });
    for (const photo of photos) {
      photo.variants.forEach((variant, index) => {
        const target = path.join(dataDirectory, "media", variant.storage_key);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.linkSync(photo.sample.files[index], target);
      });
    }
    return { photoIds: photos.map((photo) => photo.row.id), seedSeconds: (performance.now() - startedAt) / 1000 };
  } finally {
    await db.destroy();
  }
}
