import { sql } from "kysely";
import { getDb } from "@/src/db/client";
import { z } from "zod";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { AppError } from "@/src/errors/app-error";
import { getStorage } from "@/src/storage/app-storage";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/health – ok when the database and the media storage both answer
  GET: withPublic(async () => {
    try {
      await sql`select 1`.execute(getDb());
    } catch {
      throw new AppError("SERVICE_UNAVAILABLE", "The database does not answer.");
    }
    try {
      await getStorage().check();
    } catch {
      throw new AppError("SERVICE_UNAVAILABLE", "The media storage does not answer.");
    }
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  }, {
    summary: "Whether the database and the media storage answer",
    response: { status: 200, description: "Both answer.", schema: z.object({ status: z.literal("ok") }) },
    errors: ["SERVICE_UNAVAILABLE"],
  }),
});
