import { auditPageSchema, auditQuerySchema } from "@/src/audit-admin/audit.schemas";
import { listAuditEntries } from "@/src/audit-admin/audit.service";
import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/admin/audit – the audit log, newest first, filtered, by keyset pages (admins only)
  GET: withUser(async ({ user, query }) => Response.json(await listAuditEntries(getDb(), user, query)), {
    role: "admin",
    summary: "The audit log",
    description: "Every change, newest first: who, when, from which address and user agent, what, and the fields before and after. Filter by actor, action, target and dates; follow `nextCursor` for older entries.",
    query: auditQuerySchema,
    response: { status: 200, description: "One page of entries.", schema: auditPageSchema },
  }),
});
