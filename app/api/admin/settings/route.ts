import { routeMethods, withUser } from "@/src/http/api-handler";
import { parseJsonBody } from "@/src/http/request-body";
import { updateSiteSettingsSchema } from "@/src/settings/site-settings.schemas";
import { getSiteSettings, updateSiteSettings } from "@/src/settings/site-settings.service";
import { getDb } from "@/src/db/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/admin/settings – the site's settings
  GET: withUser(async () => Response.json({ settings: await getSiteSettings(getDb()) }), { role: "admin" }),

  // PATCH /api/admin/settings – change some of them (admins only)
  PATCH: withUser(
    async ({ request, user }) => {
      const input = await parseJsonBody(request, updateSiteSettingsSchema);
      return Response.json({ settings: await updateSiteSettings(getDb(), user, input) });
    },
    { role: "admin" },
  ),
});
