import { toAttachmentDisposition } from "@/src/http/content-disposition";
import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";
import { exportShareSelectionsCsv } from "@/src/shares/proofing.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/shares/[id]/selections.csv – one row per visitor and photo they picked or commented on
  GET: withUser(
    async ({ user, params }) => {
      const { title, csv } = await exportShareSelectionsCsv(getDb(), user, params.id);
      return new Response(csv, {
        headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": toAttachmentDisposition(`${title} selections.csv`), "Cache-Control": "no-store" },
      });
    },
    {
      role: "editor",
      scope: "photos:read",
      summary: "Export a share's picks and comments as CSV",
      description: "Columns: visitor, e-mail, photo title, original file name, picked, comment, sent at (RFC 4180; cells a spreadsheet would run as a formula start with an apostrophe).",
      params: idParamsSchema,
      response: { status: 200, description: "The picks and comments as CSV.", contentType: "text/csv", headers: { "Content-Disposition": "attachment; filename=\"<share> selections.csv\"" } },
      errors: ["NOT_FOUND"],
    },
  ),
});
