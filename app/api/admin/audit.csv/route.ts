import { auditCsvQuerySchema } from "@/src/audit-admin/audit.schemas";
import { streamAuditCsv } from "@/src/audit-admin/audit.service";
import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/admin/audit.csv – every entry the filters match, as CSV, streamed (admins only)
  GET: withUser(
    async ({ user, query }) => {
      const day = new Date().toISOString().slice(0, 10);
      return new Response(streamAuditCsv(getDb(), user, query), {
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="audit-log-${day}.csv"`,
          "Cache-Control": "no-store",
        },
      });
    },
    {
      role: "admin",
      summary: "Export the audit log as CSV",
      description: "The entries the same filters as GET /api/admin/audit match, newest first. Cells a spreadsheet would run as a formula start with an apostrophe.",
      query: auditCsvQuerySchema,
      response: { status: 200, description: "The entries as CSV.", contentType: "text/csv", headers: { "Content-Disposition": "attachment; filename=\"audit-log-<day>.csv\"" } },
    },
  ),
});
