import { z } from "zod";
import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { libraryFilterSchema } from "@/src/photos/library-filters";
import { libraryPageResponseSchema } from "@/src/photos/library.schemas";
import { getLibraryPage } from "@/src/photos/library.service";

const libraryQuerySchema = libraryFilterSchema.extend({
  cursor: z.string().max(300).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos/library – the photos the caller manages, newest first, filtered, with the count
  GET: withUser(
    async ({ query: { cursor, limit, ...filter }, user }) => Response.json(await getLibraryPage(getDb(), user, { filter, cursor, limit })),
    {
      role: "editor",
      scope: "photos:read",
      summary: "The library: every photo the caller manages (an admin: everyone's), newest first, filtered",
      query: libraryQuerySchema,
      response: { status: 200, description: "One page of the library and how many photos match in all.", schema: libraryPageResponseSchema },
      errors: ["BAD_REQUEST"],
    },
  ),
});
