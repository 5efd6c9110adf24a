import { z } from "zod";

/** `[id]` routes: the id is checked by the service that looks it up (404 when there is none). */
export const idParamsSchema = z.object({ id: z.string().describe("The id, as the API answers it.") });
