import { z } from "zod";
import { identifierSchema, multilineText, singleLineText } from "@/src/validation/input-text";
import { CONSENT_TEXT_MAX_LENGTH, MATCH_THRESHOLD_RANGE, MIN_MANUAL_FACE_SIDE } from "./face-limits";
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
    membersSeePeople: z.boolean().optional().describe("On: signed-in users also see others' named people in the photos they may list. Off (the default): owners only."),
    consentText: multilineText(CONSENT_TEXT_MAX_LENGTH, { tooLong: `The consent text is at most ${CONSENT_TEXT_MAX_LENGTH} characters.` })
      .optional()
      .describe("What each user is asked before their photos are looked at for faces; empty: the default words."),
  })
  .refine((value) => Object.keys(value).length > 0, "Send enabled, matchThreshold, membersSeePeople or consentText.");
export type UpdateFaceSettingsInput = z.infer<typeof updateFaceSettingsSchema>;

const boxSchema = z.object({ left: z.number(), top: z.number(), width: z.number(), height: z.number() }).describe("Fractions (0-1) of the upright photo.");

/** Rounding of fractions computed in a browser: a box touching the edge may sum to 1.0000000000000002. */
const EDGE_SLACK = 1e-9;
const fraction = (what: string) => z.number().min(0, `The box's ${what} is a fraction of the photo, 0 to 1.`).max(1, `The box's ${what} is a fraction of the photo, 0 to 1.`);
const side = (what: string) =>
  fraction(what).min(MIN_MANUAL_FACE_SIDE, `The box's ${what} must be at least ${MIN_MANUAL_FACE_SIDE} of the photo's (a box of no size holds no face).`);

export const manualFaceBoxSchema = z
  .strictObject({ left: fraction("left"), top: fraction("top"), width: side("width"), height: side("height") })
  .refine((box) => box.left + box.width <= 1 + EDGE_SLACK && box.top + box.height <= 1 + EDGE_SLACK, "The box must lie inside the photo.")
  .describe("Fractions (0-1) of the upright photo; inside it, at least 1% of each side.");

export const addManualFaceSchema = z
  .strictObject({
    box: manualFaceBoxSchema
      .nullable()
      .describe("Where the face is; null for a person without a face (someone turned away): they are in the photo, with no box."),
    personId: identifierSchema.optional().describe("One of your people: the face is theirs."),
    name: personNameSchema.optional().describe("A new person of this name: the face is theirs."),
  })
  .refine((value) => (value.personId === undefined) !== (value.name === undefined), "Send personId (one of your people) or name (a new person), one of the two.");
export type AddManualFaceInput = z.infer<typeof addManualFaceSchema>;

/** How many faces one "name many at once" request may carry: the grid shows at most 200. */
export const MAX_FACES_ASSIGNED = 200;

export const assignFacesSchema = z
  .strictObject({
    faceIds: z
      .array(identifierSchema)
      .min(1, "Choose at least one face.")
      .max(MAX_FACES_ASSIGNED, `At most ${MAX_FACES_ASSIGNED} faces at once.`)
      .describe("Faces of your photos; all of them or none are given."),
    personId: identifierSchema.optional().describe("One of your people: the faces are theirs."),
    name: personNameSchema.optional().describe("A new person of this name: the faces are theirs."),
  })
  .refine((value) => (value.personId === undefined) !== (value.name === undefined), "Send personId (one of your people) or name (a new person), one of the two.");
export type AssignFacesInput = z.infer<typeof assignFacesSchema>;

export const rejectSuggestionSchema = z.strictObject({
  suggestedPersonId: identifierSchema.describe("The named person this one is not: never suggested for them again."),
});

export const suggestionsResponseSchema = z.object({
  suggestions: z
    .array(z.object({ personId: z.string(), name: z.string(), rank: z.number().int().describe("1: the nearest of those suggested.") }))
    .describe("Named people who may be this one, nearest first (no distances: descriptors never leave the server)."),
});

export const faceSchema = z.object({
  id: z.string(),
  photoId: z.string(),
  personId: z.string().nullable(),
  personName: z.string().nullable(),
  box: boxSchema.nullable().describe("Null for a person without a face (tagged with no box)."),
  source: z.enum(["detected", "manual", "tag"]).describe("detected; manual: a box drawn by hand; tag: a person without a face."),
});

export const personSchema = z.object({
  id: z.string(),
  isOwn: z.boolean().describe("The caller's own person (only they may change them); false for another owner's named person seen by a member."),
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
export const photoFacesResponseSchema = z.object({
  faces: z.array(faceSchema),
  isCapped: z.boolean().describe("More faces were found than are kept (the 100 strongest)."),
  mayAddFaces: z.boolean().describe("The caller owns the photo, so may draw faces on it by hand."),
});

export const faceSettingsResponseSchema = z.object({
  settings: z.object({ enabled: z.boolean(), matchThreshold: z.number(), membersSeePeople: z.boolean(), consentText: z.string() }),
  progress: z.object({ scanned: z.number().int(), total: z.number().int(), faces: z.number().int() }),
});

export const listPeopleQuerySchema = z.object({
  hidden: z.enum(["include", "only"]).optional().describe("Hidden people are left out unless asked for."),
});

export const answerFaceConsentSchema = z.strictObject({
  agreed: z.boolean().describe("true: the caller's photos may be looked at for faces; false: never, and the faces found in them so far are deleted."),
  textVersion: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "textVersion is the textVersion of GET /api/faces/consent.")
    .optional()
    .describe("The textVersion of the words the caller read (GET): if the words changed since, the answer is refused (409) instead of counted for words they never saw."),
});

export const faceConsentResponseSchema = z.object({
  enabled: z.boolean().describe("Whether people is on for the site; off, nothing is looked at whatever the answer."),
  text: z.string().describe("What the caller is asked (the admin's words)."),
  textVersion: z.string().describe("Which words text is (SHA-256 of them, hex): send it back with the answer."),
  answer: z.enum(["agreed", "declined"]).nullable().describe("The caller's answer to these words; null: not asked yet, or agreed only to earlier words; either counts as no."),
  textChanged: z.boolean().describe("The caller agreed to earlier words the admin has changed since: nothing more is looked at until they answer these."),
});
