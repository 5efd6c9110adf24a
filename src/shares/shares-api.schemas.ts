import { z } from "zod";
import { SHARE_DOWNLOAD_RIGHTS } from "@/src/db/database";
import { schemaMatches } from "@/src/validation/schema-matches";
import { SHARE_ACCESS_EVENTS, SHARE_STATES } from "./share.types";
import { MAX_SHARE_PHOTOS, type ShareAccessLogEntry, type ShareSummary } from "./shares-owner.types";
import { identifierSchema, multilineText, singleLineText } from "@/src/validation/input-text";

// The owner's share API: what it takes (parsed by the handler wrapper, a failure is a 422) and
// what it answers (checked against the service's types here and against real answers by tests).

/** The least length of a share password: a link's password is said aloud or sent apart, not a sign-in. */
export const MINIMUM_SHARE_PASSWORD_LENGTH = 6;
const MAXIMUM_SHARE_PASSWORD_LENGTH = 256;

const title = singleLineText(200, { minimum: 1 });
const message = multilineText(5000);
const id = identifierSchema;
const password = z
  .string()
  .min(MINIMUM_SHARE_PASSWORD_LENGTH, `A share password has at least ${MINIMUM_SHARE_PASSWORD_LENGTH} characters.`)
  .max(MAXIMUM_SHARE_PASSWORD_LENGTH);
const expiresAt = z.iso
  .datetime({ offset: true })
  .nullable()
  .describe("When the link stops working (must be in the future); null: never. Absent on create: in 30 days.");
const count = z.number().int().min(1).max(1_000_000);

const settings = {
  title: title.optional(),
  message: message.optional().describe("Shown to visitors above the photos."),
  expiresAt: expiresAt.optional(),
  maxViews: count.nullable().optional().describe("How many browsers may be admitted; null: no limit."),
  download: z.enum(SHARE_DOWNLOAD_RIGHTS).optional().describe("What visitors may download: nothing (the default), download copies or originals."),
  allowZip: z.boolean().optional().describe("Offer the whole share as one ZIP (only when downloads are allowed)."),
  showExif: z.boolean().optional().describe("Show camera, lens, exposure and date (default on)."),
  showLocation: z.boolean().optional().describe("Show where photos were taken (default off)."),
  allowPicks: z.boolean().optional().describe("Let visitors pick favourites and comment (proofing)."),
  pickLimit: count.nullable().optional().describe("The most photos one visitor may pick; null: no limit."),
};

export const createShareSchema = z
  .strictObject({
    albumId: id.optional().describe("Share a snapshot of this album's photos that you may edit, in its order."),
    photoIds: z.array(id).min(1).max(MAX_SHARE_PHOTOS).optional().describe("Or share these photos (those you may not edit are left out)."),
    password: password.optional().describe("Visitors must enter it; stored as an argon2id hash and never answered."),
    ...settings,
  })
  .refine((value) => (value.albumId === undefined) !== (value.photoIds === undefined), "Send either albumId or photoIds.");

export const updateShareSchema = z
  .strictObject({
    password: password.nullable().optional().describe("Set or change (earlier visitors must enter the new one); null removes it."),
    revoked: z.literal(true).optional().describe("Revoke the link for good; a revoked link is never reopened."),
    refreshFromAlbum: z.literal(true).optional().describe("Take a new snapshot of the album the share was made from."),
    ...settings,
  })
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");

export const listSharesQuerySchema = z.object({
  cursor: z.string().max(300).optional().describe("The `nextCursor` of the previous page."),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const shareSummarySchema = z.object({
  id: z.string(),
  url: z.string().describe("The link to give visitors."),
  title: z.string(),
  message: z.string(),
  albumId: z.string().nullable(),
  owner: z.object({ id: z.string(), name: z.string() }),
  state: z.enum(SHARE_STATES),
  photoCount: z.number().int().describe("The photos the link opens now (trashed ones drop out)."),
  views: z.number().int().describe("Browsers admitted so far."),
  maxViews: z.number().int().nullable(),
  downloads: z.number().int(),
  lastVisitedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  hasPassword: z.boolean(),
  download: z.enum(SHARE_DOWNLOAD_RIGHTS),
  allowZip: z.boolean(),
  showExif: z.boolean(),
  showLocation: z.boolean(),
  allowPicks: z.boolean(),
  pickLimit: z.number().int().nullable(),
  selectionLockedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const shareResponseSchema = z.object({ share: shareSummarySchema });
export const shareListResponseSchema = z.object({
  shares: z.array(shareSummarySchema),
  nextCursor: z.string().nullable().describe("Pass as `cursor` for older links; null on the last page."),
});

export const shareAccessLogEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  event: z.enum(SHARE_ACCESS_EVENTS),
  photoId: z.string().nullable(),
  photoTitle: z.string().nullable(),
  address: z.string().nullable().describe("Null once replaced by a keyed hash (after 30 days) or when unknown."),
  addressHashed: z.boolean(),
  userAgent: z.string().nullable(),
});

export const shareAccessLogResponseSchema = z.object({
  entries: z.array(shareAccessLogEntrySchema),
  nextCursor: z.string().nullable().describe("Pass as `cursor` for older entries; null on the last page."),
});

export type CreateShareInput = z.output<typeof createShareSchema>;
export type UpdateShareInput = z.output<typeof updateShareSchema>;

schemaMatches<z.output<typeof shareSummarySchema>, ShareSummary>(true);
schemaMatches<z.output<typeof shareAccessLogEntrySchema>, ShareAccessLogEntry>(true);
