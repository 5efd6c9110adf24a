import { z } from "zod";
import { identifierSchema, multilineText, singleLineText } from "@/src/validation/input-text";
import { emailSchema } from "@/src/users/users.schemas";
import { MAX_FEEDBACK_COMMENT_LENGTH, MAX_VISITOR_NAME_LENGTH } from "./proofing.types";

// Proofing's API: what a share's visitors send and get (/s/[key]/api/visitor, feedback, selection)
// and what the owner gets (/api/shares/[id]/selections…). Client components import only the types.


const visitorName = singleLineText(MAX_VISITOR_NAME_LENGTH, {
  minimum: 1,
  tooShort: "Tell us your name.",
  tooLong: `A name is at most ${MAX_VISITOR_NAME_LENGTH} characters.`,
});

export const createVisitorSchema = z.strictObject({
  name: visitorName.describe(`1 to ${MAX_VISITOR_NAME_LENGTH} characters (trimmed).`),
  email: z
    .union([z.literal("").transform(() => null), emailSchema])
    .nullable()
    .optional()
    .describe("Optional, so the owner can write back; an empty string counts as none."),
});

export const feedbackSchema = z
  .strictObject({
    picked: z.boolean().optional().describe("Mark or unmark the photo as one of the visitor's picks."),
    comment: multilineText(MAX_FEEDBACK_COMMENT_LENGTH, { tooLong: `A comment is at most ${MAX_FEEDBACK_COMMENT_LENGTH} characters.` })
      .nullable()
      .optional()
      .describe("The visitor's comment on the photo; null or empty removes it."),
  })
  .refine((value) => value.picked !== undefined || value.comment !== undefined, "Send picked, comment or both.");

export const shareKeyParamsSchema = z.object({ key: identifierSchema.describe("The share link's key.") });
export const shareFeedbackParamsSchema = z.object({ key: identifierSchema.describe("The share link's key."), photoId: identifierSchema.describe("A photo of the share.") });

export const visitorFeedbackSchema = z.object({
  photoId: z.string(),
  picked: z.boolean(),
  comment: z.string().nullable(),
});

export const visitorStateSchema = z.object({
  name: z.string(),
  email: z.string().nullable(),
  feedback: z.array(visitorFeedbackSchema).describe("The visitor's own picks and comments, in the share's order."),
  pickCount: z.number().int(),
  sentAt: z.string().nullable().describe("When they last pressed \"Send my selection\"."),
});

export const visitorResponseSchema = z.object({
  visitor: visitorStateSchema.nullable().describe("null: this browser has not given a name on this link yet."),
  pickLimit: z.number().int().nullable().describe("How many photos a visitor may pick; null: no limit."),
  locked: z.boolean().describe("The owner locked the selection: picks and comments are read-only."),
  ownerName: z.string().describe("Who made the link, for \"until <owner> locks the selection\"."),
});

export const feedbackResponseSchema = z.object({
  feedback: visitorFeedbackSchema,
  pickCount: z.number().int(),
  pickLimit: z.number().int().nullable(),
});

export type VisitorFeedback = z.output<typeof visitorFeedbackSchema>;
export type VisitorState = z.output<typeof visitorStateSchema>;
export type VisitorResponse = z.output<typeof visitorResponseSchema>;
export type FeedbackResponse = z.output<typeof feedbackResponseSchema>;

// The owner's side.

export const selectionPhotoSchema = z.object({
  photoId: z.string(),
  title: z.string(),
  name: z.string().describe("What a screen reader says for the photo."),
  originalName: z.string(),
  thumbnailUrl: z.string().nullable().describe("A small JPEG for a signed-in owner; null before it is made."),
  comment: z.string().nullable(),
});

export const selectionVisitorSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  sentAt: z.string().nullable(),
  isNew: z.boolean().describe("Sent after the owner last opened the selections."),
  picks: z.array(selectionPhotoSchema).describe("The photos they picked (with their comment, if any)."),
  comments: z.array(selectionPhotoSchema).describe("Comments on photos they did not pick."),
});

export const selectionsResponseSchema = z.object({
  share: z.object({
    id: z.string(),
    title: z.string(),
    allowPicks: z.boolean(),
    pickLimit: z.number().int().nullable(),
    lockedAt: z.string().nullable(),
  }),
  visitors: z.array(selectionVisitorSchema),
});

export const selectionLockResponseSchema = z.object({ lockedAt: z.string().nullable() });

export const selectionsTxtQuerySchema = z.object({
  visitor: z.string().max(200).optional().describe("One visitor's picks; every visitor's when absent."),
});

export type SelectionPhoto = z.output<typeof selectionPhotoSchema>;
export type SelectionVisitor = z.output<typeof selectionVisitorSchema>;
export type SelectionsResponse = z.output<typeof selectionsResponseSchema>;
