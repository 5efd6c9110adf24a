import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";
import { selectionLockResponseSchema } from "@/src/shares/proofing-api.schemas";
import { setShareSelectionLocked } from "@/src/shares/proofing.service";

const contract = {
  role: "editor",
  scope: "photos:write",
  params: idParamsSchema,
  errors: ["NOT_FOUND"],
} as const;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // PUT /api/shares/[id]/selection-lock – visitors can no longer change or send their picks
  PUT: withUser(async ({ user, params }) => Response.json(await setShareSelectionLocked(getDb(), user, params.id, true, new Date())), {
    ...contract,
    summary: "Lock a share's selection: visitors' picks and comments become read-only",
    response: { status: 200, description: "When it was locked.", schema: selectionLockResponseSchema },
  }),

  // DELETE /api/shares/[id]/selection-lock – visitors may change their picks again
  DELETE: withUser(async ({ user, params }) => Response.json(await setShareSelectionLocked(getDb(), user, params.id, false, new Date())), {
    ...contract,
    summary: "Unlock a share's selection: visitors may change and send their picks again",
    response: { status: 200, description: "lockedAt is null.", schema: selectionLockResponseSchema },
  }),
});
