import { z } from "zod";

export const updateSiteSettingsSchema = z
  .strictObject({
    allowDownloads: z.boolean().optional(),
  })
  .refine((value) => Object.keys(value).length > 0, "Send at least one setting to change.");

export type UpdateSiteSettingsInput = z.infer<typeof updateSiteSettingsSchema>;

export const siteSettingsResponseSchema = z.object({
  settings: z.object({
    allowDownloads: z.boolean().describe("Whether people other than a photo's owner may download it (a download copy)."),
  }),
});
