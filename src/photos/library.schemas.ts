import { z } from "zod";
import { VISIBILITIES } from "@/src/db/database";
import { schemaMatches } from "@/src/validation/schema-matches";
import type { LibraryPage } from "./library.service";

export const libraryPhotoSchema = z.object({
  id: z.string(),
  title: z.string(),
  altText: z.string(),
  originalName: z.string(),
  status: z.enum(["processing", "ready", "failed"]),
  visibility: z.enum(VISIBILITIES),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  camera: z.string().nullable(),
  takenAt: z.string().nullable(),
  dominantColor: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
});

export const libraryPageResponseSchema = z.object({
  photos: z.array(libraryPhotoSchema),
  nextCursor: z.string().nullable().describe("Pass as ?cursor= for the next page; null on the last one."),
  total: z.number().int().describe("How many photos match the filter in all."),
});

schemaMatches<z.output<typeof libraryPageResponseSchema>, LibraryPage>(true);
