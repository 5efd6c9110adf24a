// bench:scale – one real corpus JPEG, processed once by the app's own image pipeline (decode, the
// three variant phases, the placeholder), so every seeded photo can look like a processed one and
// the few the benchmark requests can have real files.
import path from "node:path";
import { decodePhoto } from "@/src/images/photo-decoder";
import type { PhotoMetadata } from "@/src/images/photo-metadata-reader";
import { makePlaceholder, type Placeholder } from "@/src/images/placeholder-maker";
import { DEFAULT_PROCESSING_LIMITS } from "@/src/images/processing-limits";
import { type EncodedVariant, encodeVariants } from "@/src/images/variant-encoder";

/** A typical phone JPEG (the one bench:media uses): 16 variants, 12 of them JPEG and WebP. */
export const SAMPLE_PHOTO = path.resolve(import.meta.dirname, "../../../shared/corpus/exif-samples/jpg/mobile/HMD_Nokia_8.3_5G.jpg");

export interface SamplePhoto {
  width: number;
  height: number;
  metadata: PhotoMetadata;
  placeholder: Placeholder;
  /** Smallest first, JPEG before WebP before AVIF, as the worker stores them. */
  variants: EncodedVariant[];
}

export async function processSamplePhoto(): Promise<SamplePhoto> {
  const decoded = await decodePhoto(SAMPLE_PHOTO, "jpeg", DEFAULT_PROCESSING_LIMITS);
  const variants: EncodedVariant[] = [];
  for (const phase of ["visible", "full", "avif"] as const) variants.push(...(await encodeVariants(decoded, phase, DEFAULT_PROCESSING_LIMITS)));
  return {
    width: decoded.originalWidth,
    height: decoded.originalHeight,
    metadata: decoded.metadata,
    placeholder: await makePlaceholder(variants[0].bytes),
    variants,
  };
}
