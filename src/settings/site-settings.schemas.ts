import { z } from "zod";

export const updateSiteSettingsSchema = z
  .strictObject({
    allowDownloads: z.boolean().optional(),
    trashRetentionDays: z.number().int().min(1).max(3650).optional(),
  })
  .refine((value) => Object.keys(value).length > 0, "Send at least one setting to change.");

export type UpdateSiteSettingsInput = z.infer<typeof updateSiteSettingsSchema>;

export const siteSettingsResponseSchema = z.object({
  settings: z.object({
    allowDownloads: z.boolean().describe("Whether people other than a photo's owner may download it (a download copy)."),
    trashRetentionDays: z.number().int().describe("Days photos stay in the trash before they and their files are deleted for good."),
  }),
});
