import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same rows, so it uses Kysely<any> and
// its own copy of the camera's name rule (src/photos/describe-camera.ts is the living one).
//
// Cameras are named with the maker once, in its usual casing, and without company words
// ("Olympus E-P3", not "OLYMPUS IMAGING CORP. E-P3"). The URL name follows the name, so the
// cameras whose EXIF maker carries company words get a new one ("olympus-e-p3"); for the rest
// ("nikon-d70", "canon-eos-40d", "pentax-k10d") it is unchanged, since slugs are lower case.

const COMPANY_SUFFIX = /[\s,]+(corporation|corp\.?|company|co\.?,?\s*ltd\.?|ltd\.?|inc\.?|ag|gmbh|imaging|optical|computer|electric|camera|techwin|global|digital solutions)$/i;
const USUAL_MAKER_NAMES: Record<string, string> = {
  "eastman kodak": "Kodak",
  fuji: "Fujifilm",
  fujifilm: "Fujifilm",
  "konica minolta": "Konica Minolta",
  "om digital solutions": "OM System",
  oneplus: "OnePlus",
  gopro: "GoPro",
  dji: "DJI",
  hmd: "HMD",
  htc: "HTC",
  lg: "LG",
  lge: "LG",
};

function usualMakerName(make: string): string {
  let name = make.trim();
  for (let previous = ""; previous !== name; ) {
    previous = name;
    name = name.replace(COMPANY_SUFFIX, "").trim();
  }
  if (!name) name = make.trim();
  const known = USUAL_MAKER_NAMES[name.toLowerCase()];
  if (known) return known;
  const isOneCase = name === name.toUpperCase() || name === name.toLowerCase();
  return isOneCase ? name.toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase()) : name;
}

function describeCamera(make: string | null, model: string | null): string | null {
  const cleanMake = make?.trim() || null;
  const cleanModel = model?.trim() || null;
  if (!cleanMake) return cleanModel;
  const maker = usualMakerName(cleanMake);
  if (!cleanModel) return maker;
  let rest = cleanModel;
  for (const prefix of new Set([maker, cleanMake, cleanMake.split(/\s+/)[0]])) {
    if (cleanModel.toLowerCase().startsWith(`${prefix.toLowerCase()} `)) {
      rest = cleanModel.slice(prefix.length).trim();
      break;
    }
    if (cleanModel.toLowerCase() === prefix.toLowerCase()) {
      rest = "";
      break;
    }
  }
  return rest ? `${maker} ${rest}` : maker;
}

function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One update per distinct camera whose URL name changes.
  const cameras = await db.selectFrom("photos").select(["camera_make", "camera_model", "camera_slug"]).distinct().where("camera_slug", "is not", null).execute();
  for (const { camera_make, camera_model, camera_slug } of cameras) {
    const name = describeCamera(camera_make, camera_model);
    const slug = name ? slugify(name) || null : null;
    if (slug === camera_slug) continue;
    await db
      .updateTable("photos")
      .set({ camera_slug: slug })
      .where((eb) => eb.and([camera_make === null ? eb("camera_make", "is", null) : eb("camera_make", "=", camera_make), camera_model === null ? eb("camera_model", "is", null) : eb("camera_model", "=", camera_model)]))
      .execute();
  }
}

// Nothing to undo: the earlier URL names are made again only by the earlier code.
export async function down(): Promise<void> {}
