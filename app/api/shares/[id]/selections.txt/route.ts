import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { toAttachmentDisposition } from "@/src/http/content-disposition";
import { idParamsSchema } from "@/src/validation/input-text";
import { selectionsTxtQuerySchema } from "@/src/shares/proofing-api.schemas";
import { exportShareSelectionsLightroom } from "@/src/shares/proofing.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/shares/[id]/selections.txt – the picked photos' file names for Lightroom Classic's filter
  GET: withUser(
    async ({ user, params, query }) => {
      const { title, text } = await exportShareSelectionsLightroom(getDb(), user, params.id, query.visitor);
      return new Response(text, {
        headers: { "Content-Type": "text/plain; charset=utf-8", "Content-Disposition": toAttachmentDisposition(`${title} picks.txt`), "Cache-Control": "no-store" },
      });
    },
    {
      role: "editor",
      scope: "photos:read",
      summary: "The picked photos' file names, for Lightroom Classic's Library Filter",
      description:
        "One line: the original file names without extension, separated by commas. In Lightroom Classic's Library module, open the Library Filter's Text filter, choose Filename and Contains, and paste it: a comma separates alternatives, so every picked photo shows (its RAW, DNG and JPEG alike). `?visitor=` gives one visitor's picks.",
      params: idParamsSchema,
      query: selectionsTxtQuerySchema,
      response: { status: 200, description: "The file-name list.", contentType: "text/plain", headers: { "Content-Disposition": "attachment; filename=\"<share> picks.txt\"" } },
      errors: ["NOT_FOUND"],
    },
  ),
});
