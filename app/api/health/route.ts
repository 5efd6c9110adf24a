import { sql } from "kysely";
import { getDb } from "@/src/db/client";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { AppError } from "@/src/http/app-error";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/health – ok when the database answers
  GET: withPublic(async () => {
    try {
      await sql`select 1`.execute(getDb());
    } catch {
      throw new AppError("SERVICE_UNAVAILABLE", "The database does not answer.");
    }
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  }),
});
