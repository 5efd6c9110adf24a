// bench:search – what the search benchmark adds to bench:scale's photos (scale-seed.ts, through its
// SeedExtension): titles, captions and alt text drawn from a vocabulary, tags, a few albums, and
// varied cameras, lenses, ISO, apertures and orientations. Two words are placed on purpose:
//   RARE_WORD on exactly RARE_COUNT public photos at every size (a needle: the answer is the same size
//   at 1,000 and at 100,000 photos), COMMON_WORD on every tenth photo (the answer grows with the library).
// The search index is the app's own (migration SEARCH_INDEX_MIGRATION): by default the rows are
// seeded just before it and the migration's backfill builds the index from them in one statement;
// with "triggers" the index's triggers fill it row by row as the rows go in (slower: that is the cost
// of a bulk import). What each photo was given is kept (SearchFacts) so the benchmark can check
// every answer before it measures.
import { randomUUID } from "node:crypto";
import { generateKeyBetween } from "fractional-indexing";
import { insertAlbum, insertAlbumPhotos } from "@/src/albums/albums.repository";
import type { Visibility } from "@/src/db/database";
import { cameraSlug, lensSlug } from "@/src/photos/camera-slug";
import { insertMissingTags, insertPhotoTags } from "@/src/tags/tags.repository";
import { tagKey } from "@/src/tags/tag-name";
import type { SamplePhoto } from "./scale-sample";
import { createRandom, type PlannedPhotoRow, type SeedExtension } from "./scale-seed";

export const SEARCH_INDEX_MIGRATION = "2026-11-28T0100-search-index";
export type IndexFilling = "backfill" | "triggers";

export const RARE_WORD = "zanzibar";
export const RARE_COUNT = 20;
export const COMMON_WORD = "sunset";
/** Every COMMON_EVERY-th photo (10 %) has COMMON_WORD in its title. */
const COMMON_EVERY = 10;
/** A tag on about a fifth of the photos, independent of COMMON_WORD: what the negation leaves out. */
export const NEGATED_TAG = "beach";

// None of these starts with another's letters, RARE_WORD, COMMON_WORD or NEGATED_TAG, so a prefix
// finds exactly the photos that were given the word.
const WORDS = [
  "harbour", "meadow", "lantern", "granite", "orchard", "willow", "cobble", "glacier", "market", "chapel",
  "canyon", "ferry", "bakery", "pier", "dune", "garden", "quarry", "bridge", "alley", "tram",
  "lighthouse", "vineyard", "forest", "river", "station", "rooftop", "festival", "island", "valley", "cliff",
  "mosaic", "fountain",
];
const TAGS = ["Family", "Travel", "Portrait", "Street", "Night", "Snow", "Birds", "Food", "Architecture", "Macro", "Film", "Kids"];
const CAMERAS: Array<{ make: string; model: string; lenses: string[] }> = [
  { make: "Canon", model: "Canon EOS 40D", lenses: ["EF-S17-85mm f/4-5.6 IS USM", "EF50mm f/1.8 II"] },
  { make: "Canon", model: "Canon EOS R5", lenses: ["RF24-105mm F4 L IS USM", "RF85mm F1.2 L USM"] },
  { make: "NIKON CORPORATION", model: "NIKON D750", lenses: ["AF-S NIKKOR 24-70mm f/2.8G ED"] },
  { make: "FUJIFILM", model: "X-T4", lenses: ["XF35mmF1.4 R", "XF16-55mmF2.8 R LM WR"] },
  { make: "SONY", model: "ILCE-7M3", lenses: ["FE 85mm F1.8", "FE 24-70mm F2.8 GM"] },
  { make: "Apple", model: "iPhone 13 Pro", lenses: ["iPhone 13 Pro back triple camera 5.7mm f/1.5"] },
  { make: "OLYMPUS CORPORATION", model: "E-M10MarkII", lenses: ["OLYMPUS M.12-40mm F2.8"] },
  { make: "Panasonic", model: "DMC-GX8", lenses: ["LUMIX G 20/F1.7 II"] },
];
/** One camera's slug, for `camera:… year:…` (the Nikon). */
export const FILTER_CAMERA_SLUG = cameraSlug(CAMERAS[2].make, CAMERAS[2].model) as string;
const ISOS = [100, 200, 400, 800, 1600, 3200, 6400];
const APERTURES = [1.4, 1.8, 2, 2.8, 4, 5.6, 8, 11];
const ALBUMS: Array<{ slug: string; title: string; visibility: Visibility }> = [
  { slug: "harbour-walks", title: "Harbour walks", visibility: "public" },
  { slug: "family-summers", title: "Family summers", visibility: "public" },
  { slug: "night-trams", title: "Night trams", visibility: "public" },
  { slug: "keepsakes", title: "Keepsakes archive", visibility: "private" },
];
/** The share of photos in some album (spread over ALBUMS). */
const IN_ALBUM = 0.04;

/** What one seeded photo was given, for the benchmark's checks. */
export interface SearchFacts {
  id: string;
  sortAt: string;
  /** Listed for an anonymous visitor: public and ready (nothing seeded is in the trash). */
  isPublicReady: boolean;
  isRare: boolean;
  isCommon: boolean;
  cameraSlug: string | null;
  lensSlug: string | null;
  year: number;
  tagKeys: string[];
}

export interface SearchSeed {
  extension: SeedExtension;
  /** Filled while seeding, one entry per photo. */
  facts: Map<string, SearchFacts>;
  /** The cameras' slugs, in CAMERAS' order. */
  cameraSlugs: string[];
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

export function createSearchSeed(size: number, sample: SamplePhoto, filling: IndexFilling): SearchSeed {
  const random = createRandom(15);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const facts = new Map<string, SearchFacts>();
  const tagIds = new Map(TAGS.concat(capitalise(NEGATED_TAG)).map((name) => [tagKey(name), randomUUID()]));
  const albumIds = ALBUMS.map(() => randomUUID());
  const lastOrderKeys: Array<string | null> = ALBUMS.map(() => null);
  const long = Math.max(sample.width, sample.height);
  const short = Math.min(sample.width, sample.height);
  const rareStride = size / RARE_COUNT;
  let nextRareIndex = rareStride / 2;
  let rareSoFar = 0;

  const extension: SeedExtension = {
    seedBeforeMigration: filling === "backfill" ? SEARCH_INDEX_MIGRATION : undefined,
    prepare: async (db, users) => {
      const now = new Date().toISOString();
      await insertMissingTags(db, [...tagIds].map(([key, id]) => ({ id, key, name: capitalise(key), created_at: now })));
      for (const [index, album] of ALBUMS.entries()) {
        await insertAlbum(db, { id: albumIds[index], owner_id: users.admin.id, slug: album.slug, title: album.title, visibility: album.visibility, parent_id: null, cover_photo_id: null, created_at: now, updated_at: now });
      }
    },

    describePhoto: (row, index) => {
      const isReady = row.status === "ready";
      // RARE_COUNT photos spread evenly over the years, each public and finished so a visitor finds all of them.
      const isRare = isReady && rareSoFar < RARE_COUNT && index >= nextRareIndex;
      if (isRare) {
        rareSoFar += 1;
        nextRareIndex += rareStride;
      }
      const isCommon = index % COMMON_EVERY === 3;
      const titleWords = [capitalise(pick(WORDS)), pick(WORDS), ...(isCommon ? [COMMON_WORD] : []), ...(isRare ? [RARE_WORD] : [])];
      const caption = `${capitalise(pick(WORDS))} by the ${pick(WORDS)}, near the ${pick(WORDS)} and the ${pick(WORDS)}.`;
      // 5 % of photos without EXIF (scanned, edited), so facets and camera: have gaps.
      const camera = isReady && random() >= 0.05 ? pick(CAMERAS) : null;
      const lens = camera ? pick(camera.lenses) : null;
      const shape = random();
      const [width, height] = shape < 0.6 ? [long, short] : shape < 0.9 ? [short, long] : [short, short];
      const tags = [...new Set([...(random() < 0.2 ? [NEGATED_TAG] : []), ...Array.from({ length: Math.floor(random() * 3) }, () => tagKey(pick(TAGS)))])];
      const visibility = isRare ? "public" : row.visibility;
      facts.set(row.id, {
        id: row.id,
        sortAt: row.sort_at,
        isPublicReady: visibility === "public" && isReady,
        isRare,
        isCommon,
        cameraSlug: camera ? cameraSlug(camera.make, camera.model) : null,
        lensSlug: lensSlug(lens),
        year: new Date(row.sort_at).getUTCFullYear(),
        tagKeys: tags,
      });
      return {
        visibility,
        title: titleWords.join(" "),
        caption,
        alt_text: `A photo of the ${pick(WORDS)}`,
        camera_make: camera?.make ?? null,
        camera_model: camera?.model ?? null,
        camera_slug: camera ? cameraSlug(camera.make, camera.model) : null,
        lens,
        lens_slug: lensSlug(lens),
        iso: camera ? pick(ISOS) : null,
        aperture: camera ? pick(APERTURES) : null,
        width: isReady ? width : null,
        height: isReady ? height : null,
      };
    },

    addRows: async (transaction, rows: PlannedPhotoRow[]) => {
      const photoTags = rows.flatMap((row) => (facts.get(row.id)?.tagKeys ?? []).map((key) => ({ photo_id: row.id, tag_id: tagIds.get(key) as string, sort_at: row.sort_at })));
      // 3 columns a row: 5,000 rows stay under both databases' bound-parameter limits.
      for (let offset = 0; offset < photoTags.length; offset += 5_000) await insertPhotoTags(transaction, photoTags.slice(offset, offset + 5_000));
      const now = new Date().toISOString();
      const members = rows.flatMap((row) => {
        if (random() >= IN_ALBUM) return [];
        const album = Math.floor(random() * ALBUMS.length);
        const orderKey = generateKeyBetween(lastOrderKeys[album], null);
        lastOrderKeys[album] = orderKey;
        return [{ album_id: albumIds[album], photo_id: row.id, order_key: orderKey, photo_sort_at: row.sort_at, photo_created_at: row.created_at as string, added_at: now }];
      });
      for (let offset = 0; offset < members.length; offset += 5_000) await insertAlbumPhotos(transaction, members.slice(offset, offset + 5_000));
    },
  };
  return { extension, facts, cameraSlugs: CAMERAS.map((camera) => cameraSlug(camera.make, camera.model) as string) };
}

/** The photos an anonymous visitor may list that `matches` finds, in gallery order (sort_at, id descending). */
export function expectedForVisitor(seed: SearchSeed, matches: (facts: SearchFacts) => boolean): SearchFacts[] {
  return [...seed.facts.values()]
    .filter((facts) => facts.isPublicReady && matches(facts))
    .sort((left, right) => (left.sortAt !== right.sortAt ? (left.sortAt < right.sortAt ? 1 : -1) : left.id < right.id ? 1 : -1));
}
