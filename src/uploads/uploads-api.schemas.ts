import { z } from "zod";
import { ROLES } from "@/src/access/roles";
import { schemaMatches } from "@/src/validation/schema-matches";
import type { UploadOutcome } from "./upload.service";

// The upload API's answers, described for the API reference and checked against the service's type.

export const uploadOutcomeSchema = z.object({
  id: z.string(),
  status: z.enum(["processing", "ready", "failed"]),
  name: z.string().describe("The file name as received (cleaned)."),
  isDuplicate: z.boolean().describe("The caller already had these bytes: this is the existing photo."),
});

export const uploadResponseSchema = z.object({ photos: z.array(uploadOutcomeSchema) });

/** What the tus request that completes an upload answers (200 or 201), for the uploader page. */
export const finishedUploadResponseSchema = z.object({ photo: uploadOutcomeSchema });

export const uploadLimitsResponseSchema = z.object({
  uploader: z.object({ id: z.string(), role: z.enum(ROLES) }),
  limits: z.object({ maxFileBytes: z.number().int(), maxFiles: z.number().int() }),
  acceptedTypes: z.array(z.string()),
});

schemaMatches<z.output<typeof uploadOutcomeSchema>, UploadOutcome>(true);
