import { z } from "zod";
import { schemaMatches } from "@/src/validation/schema-matches";
import type { KnownFile } from "./known-files.service";

/**
 * How many hashes one check takes. 500 hex SHA-256s are 34 KB of JSON, inside the API's 64 KiB
 * body limit with room to spare (1,000 would not fit); an importer sends its files in batches.
 */
export const MAX_HASHES_PER_CHECK = 500;

const sha256Schema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "A SHA-256 in lower-case hex (64 characters).")
  .describe("A file's SHA-256, lower-case hex.");

export const knownFilesRequestSchema = z.strictObject({
  sha256: z.array(sha256Schema).min(1).max(MAX_HASHES_PER_CHECK).describe(`The files' hashes, at most ${MAX_HASHES_PER_CHECK}.`),
});

export const knownFileSchema = z.object({
  sha256: z.string(),
  photoId: z.string().describe("The caller's photo with these bytes."),
  trashed: z.boolean().describe("The photo is in the caller's trash; uploading the bytes again would restore it."),
});

export const knownFilesResponseSchema = z.object({
  known: z.array(knownFileSchema).describe("Only the hashes the caller already has, each once; every other hash is new to them."),
});

schemaMatches<z.output<typeof knownFileSchema>, KnownFile>(true);
