import { z } from "zod";
import { identifierSchema } from "@/src/validation/input-text";

const keyParam = identifierSchema.describe("The share link's key (the secret part of /s/{key}).");

/** `/s/[key]/download.zip` */
export const shareZipParamsSchema = z.object({ key: keyParam });

/** `/s/[key]/p/[photoId]/download` */
export const sharedPhotoDownloadParamsSchema = z.object({
  key: keyParam,
  photoId: identifierSchema.describe("A photo of the share, as the visitor API answers it."),
});
