import { z } from "zod";

export const updateSiteSettingsSchema = z
  .strictObject({
    allowDownloads: z.boolean().optional(),
  })
  .refine((value) => Object.keys(value).length > 0, "Send at least one setting to change.");

export type UpdateSiteSettingsInput = z.infer<typeof updateSiteSettingsSchema>;
