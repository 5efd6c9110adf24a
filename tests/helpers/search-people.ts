import type { Kysely } from "kysely";
import type { Database } from "@/src/db/database";
import { writeFaceSettings } from "@/src/faces/face-settings";

// People for search tests (issue 32), straight into the tables (no detection): a person, named or
// not, hidden or not, with one face in each of the photos given. Boxes and scores do not matter here.

export async function seedPerson(
  db: Kysely<Database>,
  person: { id: string; ownerId: string; name: string | null; isHidden?: boolean },
  photoIds: readonly string[],
): Promise<void> {
  const now = "2026-01-01T00:00:00.000Z";
  await db
    .insertInto("people")
    .values({ id: person.id, owner_id: person.ownerId, name: person.name, is_hidden: person.isHidden ? 1 : 0, cover_face_id: null, created_at: now, updated_at: now })
    .execute();
  if (photoIds.length === 0) return;
  await db
    .insertInto("faces")
    .values(
      photoIds.map((photoId, index) => ({
        id: `${person.id}-face-${index}`,
        photo_id: photoId,
        person_id: person.id,
        box_left: 0.4,
        box_top: 0.2,
        box_width: 0.2,
        box_height: 0.3,
        score: 0.9,
        descriptor: null,
        source: "detected" as const,
        created_at: now,
      })),
    )
    .execute();
}

/** The site setting "members see people" (off by default). */
export function setMembersSeePeople(db: Kysely<Database>, on: boolean): Promise<void> {
  return writeFaceSettings(db, { membersSeePeople: on });
}
