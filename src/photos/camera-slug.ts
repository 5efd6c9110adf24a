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

/**
 * The URL name this camera had before names lost their company words (2026-11-29): the model alone
 * when it starts with the maker's first word, else make and model as EXIF writes them
 * ("olympus-imaging-corp-e-p3", "eastman-kodak-company-kodak-cx7530-zoom-digital-camera"). Old
 * links and saved searches name cameras by it, so /cameras/<earlier> sends on to the camera's
 * address and camera:<earlier> finds its photos. The rule of that time, never to change.
 */
export function earlierCameraSlug(make: string | null, model: string | null): string | null {
  const name = !model ? make : !make ? model : model.toLowerCase().startsWith(make.split(/\s+/)[0].toLowerCase()) ? model : `${make} ${model}`;
  return name ? slugify(name) || null : null;
}

/** "iphone-6-back-camera-4-15mm-f-2-2"; null when the lens is unknown. */
export function lensSlug(lens: string | null): string | null {
  return lens ? slugify(lens) || null : null;
}
