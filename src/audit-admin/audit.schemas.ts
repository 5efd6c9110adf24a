import { z } from "zod";

/**
 * The actions the audit log knows by name, for the filter's choices. Rows may hold others (a newer
 * version's); the filter takes any action text.
 */
export const AUDIT_ACTIONS = [
  "auth.sign-in",
  "auth.sign-in-failure",
  "auth.sign-in-rate-limited",
  "user.create",
  "user.update",
  "user.reset-password",
  "user.sign-out-everywhere",
  "user.delete",
  "user.oauth-signup",
  "user.oauth-link",
  "api-token.create",
  "api-token.revoke",
  "settings.update",
  "photo.upload",
  "photo.update",
  "photo.bulk-update",
  "photo.tags",
  "photo.trash",
  "photo.restore",
  "photo.purge",
  "album.create",
  "album.update",
  "album.delete",
  "album.photos-add",
  "album.photos-remove",
  "album.reorder",
  "share.create",
  "share.update",
  "share.revoke",
  "share.delete",
  "tag.rename",
  "tag.merge",
  "share.selection-lock",
  "share.selection-unlock",
  "audit.purge",
] as const;

export const AUDIT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

/** A day (whole UTC day) or an exact ISO time. */
const timeBound = z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: "Use a date (2026-11-26) or an ISO time." });

export const auditQuerySchema = z.strictObject({
  actor: z.uuid("The actor is a user id.").optional(),
  action: z.string().trim().min(1).max(64, "The action is at most 64 characters.").optional(),
  target: z.string().trim().min(1).max(200, "The target id is at most 200 characters.").optional(),
  from: timeBound.optional().describe("Entries from this day (UTC) or time on."),
  to: timeBound.optional().describe("Entries up to and including this day (UTC), or before this time."),
  cursor: z.string().max(300).optional().describe("The `nextCursor` of the previous page."),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
});

export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditCsvQuerySchema = auditQuerySchema.omit({ cursor: true, limit: true });

export const auditEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  actor: z.object({ id: z.string(), name: z.string().nullable(), email: z.string().nullable() }).nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  address: z.string().nullable(),
  userAgent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).describe("Usually { before: {...}, after: {...} } with the fields that changed."),
});

export type AuditEntryView = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  nextCursor: z.string().nullable().describe("Pass as `cursor` for older entries; null on the last page."),
});

export type AuditPage = z.infer<typeof auditPageSchema>;
