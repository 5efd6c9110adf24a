import { getDb } from "@/src/db/client";
import { faceSettingsResponseSchema, updateFaceSettingsSchema } from "@/src/faces/people.schemas";
import { getFaceSettingsView, updateFaceSettings } from "@/src/faces/face-settings.service";
import { routeMethods, withUser } from "@/src/http/api-handler";

const RESPONSE = { status: 200, description: "Whether people (face detection) is on, its match threshold, and how far detection has come.", schema: faceSettingsResponseSchema };

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/admin/faces – people's settings and progress (admins)
  GET: withUser(async () => Response.json(await getFaceSettingsView(getDb())), { role: "admin", summary: "People (face detection): settings and progress", response: RESPONSE }),

  // PATCH /api/admin/faces – turn people on or off, or change the threshold (admins)
  PATCH: withUser(async ({ user, body }) => Response.json(await updateFaceSettings(getDb(), user, body)), {
    role: "admin",
    summary: "Turn people (face detection) on or off, or change its match threshold",
    description: "On queues every existing photo for detection (a resumable backfill). Off deletes every detected face and descriptor and stops the backfill.",
    body: updateFaceSettingsSchema,
    response: RESPONSE,
    errors: ["INVALID_INPUT"],
  }),
});
