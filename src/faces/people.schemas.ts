import { z } from "zod";
import { identifierSchema, singleLineText } from "@/src/validation/input-text";
import { MATCH_THRESHOLD_RANGE } from "./face-limits";
import { PERSON_NAME_MAX_LENGTH } from "./person-name-limit";

// The people API's input and answers. No answer carries a descriptor: they never leave the server.

const personNameSchema = singleLineText(PERSON_NAME_MAX_LENGTH, {
  minimum: 1,
  tooShort: "A name cannot be empty (send null to take the name away).",
  tooLong: `A name is at most ${PERSON_NAME_MAX_LENGTH} characters.`,
});

export const updatePersonSchema = z
  .strictObject({
    name: personNameSchema.nullable().optional().describe("The person's name; null: unnamed again."),
    isHidden: z.boolean().optional().describe("Hidden people are left out of /people unless asked for."),
    coverFaceId: identifierSchema.optional().describe("One of the person's faces, shown for them."),
  })
  .refine((value) => Object.keys(value).length > 0, "Send at least one of name, isHidden, coverFaceId.");
export type UpdatePersonInput = z.infer<typeof updatePersonSchema>;

export const mergePeopleSchema = z.strictObject({
  intoPersonId: identifierSchema.describe("The person who keeps every face of both (and their own name, or this one's if they have none)."),
});

export const updateFaceSettingsSchema = z
  .strictObject({
    enabled: z.boolean().optional().describe("Off deletes every detected face and descriptor and stops a backfill."),
    matchThreshold: z
      .number()
      .min(MATCH_THRESHOLD_RANGE.minimum, `The match threshold is between ${MATCH_THRESHOLD_RANGE.minimum} and ${MATCH_THRESHOLD_RANGE.maximum}.`)
      .max(MATCH_THRESHOLD_RANGE.maximum, `The match threshold is between ${MATCH_THRESHOLD_RANGE.minimum} and ${MATCH_THRESHOLD_RANGE.maximum}.`)
      .optional(),
  })
  .refine((value) => Object.keys(value).length > 0, "Send enabled or matchThreshold.");
export type UpdateFaceSettingsInput = z.infer<typeof updateFaceSettingsSchema>;

const boxSchema = z.object({ left: z.number(), top: z.number(), width: z.number(), height: z.number() }).describe("Fractions (0-1) of the upright photo.");

export const faceSchema = z.object({
  id: z.string(),
  photoId: z.string(),
  personId: z.string().nullable(),
  personName: z.string().nullable(),
  box: boxSchema,
  source: z.enum(["detected", "manual"]),
});

export const personSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  isHidden: z.boolean(),
  photoCount: z.number().int(),
  cover: z
    .object({ faceId: z.string(), photoId: z.string(), box: boxSchema, imageUrl: z.string().nullable(), aspectRatio: z.number() })
    .nullable(),
});

export const personResponseSchema = z.object({ person: personSchema });
export const peopleResponseSchema = z.object({ people: z.array(personSchema) });
export const faceResponseSchema = z.object({ face: faceSchema });

export const faceSettingsResponseSchema = z.object({
  settings: z.object({ enabled: z.boolean(), matchThreshold: z.number() }),
  progress: z.object({ scanned: z.number().int(), total: z.number().int(), faces: z.number().int() }),
});

export const listPeopleQuerySchema = z.object({
  hidden: z.enum(["include", "only"]).optional().describe("Hidden people are left out unless asked for."),
});
