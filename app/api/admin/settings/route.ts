import { routeMethods, withUser } from "@/src/http/api-handler";
import { siteSettingsResponseSchema, updateSiteSettingsSchema } from "@/src/settings/site-settings.schemas";
import { getSiteSettings, updateSiteSettings } from "@/src/settings/site-settings.service";
import { getDb } from "@/src/db/client";

const SETTINGS_RESPONSE = { status: 200, description: "The site's settings.", schema: siteSettingsResponseSchema };

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/admin/settings – the site's settings
  GET: withUser(async () => Response.json({ settings: await getSiteSettings(getDb()) }), {
    role: "admin",
    summary: "The site's settings",
    response: SETTINGS_RESPONSE,
  }),

  // PATCH /api/admin/settings – change some of them (admins only)
  PATCH: withUser(
    async ({ body: input, user }) => {
      return Response.json({ settings: await updateSiteSettings(getDb(), user, input) });
    },
    { role: "admin", summary: "Change some of the site's settings", body: updateSiteSettingsSchema, response: SETTINGS_RESPONSE },
  ),
});
