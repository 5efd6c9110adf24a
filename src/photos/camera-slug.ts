import { describeCamera } from "@/src/photos/describe-camera";

// The URL names of cameras and lenses (/cameras/[slug], /lenses/[slug]) and what `camera:`/`lens:`
// search terms are matched against. Kept on the photo row (camera_slug, lens_slug, set with the
// EXIF summary), so a camera's page walks an index. Client-safe.

const MAX_SLUG_LENGTH = 80;

/** Lower case ASCII words joined by `-`: accents folded, everything else a separator. Empty for no letters or digits. */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, "");
}

/** "canon-eos-40d" for Canon / Canon EOS 40D; null when the camera is unknown. */
export function cameraSlug(make: string | null, model: string | null): string | null {
  const name = describeCamera(make, model);
  return name ? slugify(name) || null : null;
}

/** "iphone-6-back-camera-4-15mm-f-2-2"; null when the lens is unknown. */
export function lensSlug(lens: string | null): string | null {
  return lens ? slugify(lens) || null : null;
}
