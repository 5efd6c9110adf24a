import { z } from "zod";
import { LOCATION_PRECISIONS, VISIBILITIES } from "@/src/db/database";
import { multilineText, singleLineText } from "@/src/validation/input-text";

/** Limits shared by the form and the API, so both refuse the same input with the same words. */
export const SITE_TITLE_MAX_LENGTH = 80;
export const SITE_DESCRIPTION_MAX_LENGTH = 300;
export const AUDIT_RETENTION_MAX_DAYS = 3650;

const analyticsUrlSchema = z
  .url({ protocol: /^https?$/, error: "The analytics script must be an http:// or https:// URL." })
  .max(2048, "The analytics script URL is too long (2048 characters at most).");

export const updateSiteSettingsSchema = z
  .strictObject({
    // The title reaches every page's <title>, the feeds and e-mail-like previews: one line, no
    // control characters. The description is typed in a textarea, so line breaks may stay.
    siteTitle: singleLineText(SITE_TITLE_MAX_LENGTH, {
      minimum: 1,
      tooShort: "The site title cannot be empty.",
      tooLong: `The site title is too long (${SITE_TITLE_MAX_LENGTH} characters at most).`,
    }).optional(),
    siteDescription: multilineText(SITE_DESCRIPTION_MAX_LENGTH, { tooLong: `The description is too long (${SITE_DESCRIPTION_MAX_LENGTH} characters at most).` }).optional(),
    defaultVisibility: z.enum(VISIBILITIES, { error: `The default visibility must be one of: ${VISIBILITIES.join(", ")}.` }).optional(),
    showLocationByDefault: z.boolean().optional(),
    locationPrecision: z.enum(LOCATION_PRECISIONS, { error: `The location precision must be one of: ${LOCATION_PRECISIONS.join(", ")}.` }).optional(),
    allowDownloads: z.boolean().optional(),
    analyticsScriptUrl: z
      .union([z.null(), z.literal(""), analyticsUrlSchema], { error: "The analytics script must be an http:// or https:// URL, or empty." })
      .transform((value) => value || null)
      .optional(),
    auditRetentionDays: z
      .int("Audit retention must be a whole number of days.")
      .min(1, "Audit retention must be at least 1 day.")
      .max(AUDIT_RETENTION_MAX_DAYS, `Audit retention can be at most ${AUDIT_RETENTION_MAX_DAYS} days.`)
      .optional(),
    trashRetentionDays: z
      .int("Trash retention must be a whole number of days.")
      .min(1, "Trash retention must be at least 1 day.")
      .max(3650, "Trash retention can be at most 3650 days.")
      .optional(),
  })
  .refine((value) => Object.keys(value).length > 0, "Send at least one setting to change.");

export type UpdateSiteSettingsInput = z.infer<typeof updateSiteSettingsSchema>;

export const siteSettingsResponseSchema = z.object({
  settings: z.object({
    siteTitle: z.string().describe("The site's name: the header, every page's <title>, and feeds."),
    siteDescription: z.string().describe("One line about the site: the description meta tag and link previews."),
    defaultVisibility: z.enum(VISIBILITIES).describe("The visibility new uploads start with."),
    showLocationByDefault: z.boolean().describe("Whether new uploads show their location to others."),
    locationPrecision: z.enum(LOCATION_PRECISIONS).describe("How precisely others learn a shown location when the photo did not choose: exact, city (0.1°), region (1°) or country (no coordinates)."),
    allowDownloads: z.boolean().describe("Whether people other than a photo's owner may download it (a download copy)."),
    analyticsScriptUrl: z.string().nullable().describe("The analytics script public pages load; null: ANALYTICS_SCRIPT_URL from the environment, if any."),
    auditRetentionDays: z.number().int().describe("How many days audit log entries are kept."),
    trashRetentionDays: z.number().int().describe("Days photos stay in the trash before they and their files are deleted for good."),
  }),
});
