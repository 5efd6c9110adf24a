import "server-only";
import type { ExpressionBuilder } from "kysely";
import { signedInUser, type Viewer } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import type { Database } from "@/src/db/database";
import { type PhotoListAccess, photoListAccessOf, whereListablePhotos } from "@/src/photos/listable-photos";
import { readFaceSettings } from "./face-settings";

// Who may see which people (issue 32), in one place: the people pages, the photo's faces, covers
// and `person:` search all ask this module, never a copy.
//
// - A visitor (and so a share link, a feed, a link preview) sees nobody.
// - A signed-in user always sees their own people, hidden or not, named or not.
// - With the site setting "members see people" on, they also see other owners' people who are
//   named and not hidden, but only through the photos the one photo access rule lets them list: a
//   person appears only if one of their faces is in such a photo, counts only such photos, and
//   their cover (a face crop) is only ever cut from such a photo. Unnamed people are the owner's
//   unreviewed groups and stay theirs. Nobody but the owner may change a person.

export type PeopleAccess =
  | { kind: "nobody" }
  | {
      kind: "own" | "members";
      userId: string;
      /** The viewer's photo list access: faces, covers and counts only come from photos it lists. */
      photos: PhotoListAccess;
    };

export const NO_PEOPLE_ACCESS: PeopleAccess = Object.freeze({ kind: "nobody" });

export async function peopleAccessOf(db: DatabaseHandle, viewer: Viewer): Promise<PeopleAccess> {
  const user = signedInUser(viewer);
  if (!user) return NO_PEOPLE_ACCESS;
  const { membersSeePeople } = await readFaceSettings(db);
  return { kind: membersSeePeople ? "members" : "own", userId: user.id, photos: photoListAccessOf(viewer) };
}

/** Whether this access sees people of other owners at all (the setting is on and someone is signed in). */
export function seesOthersPeople(access: PeopleAccess): boolean {
  return access.kind === "members";
}

/**
 * The condition on `people` for the people this access may see: their own, and (members) others'
 * named, shown people with a face in a photo the viewer may list.
 */
export function whereVisiblePeople<TB extends "people">(eb: ExpressionBuilder<Database, TB>, access: PeopleAccess) {
  const people = eb as unknown as ExpressionBuilder<Database, "people">;
  if (access.kind === "nobody") return people.lit(false);
  const own = people("people.owner_id", "=", access.userId);
  if (access.kind === "own") return own;
  return people.or([
    own,
    people.and([
      people("people.name", "is not", null),
      people("people.is_hidden", "=", 0),
      people.exists(
        people
          .selectFrom("faces")
          .innerJoin("photos", "photos.id", "faces.photo_id")
          .select("faces.id")
          .whereRef("faces.person_id", "=", "people.id")
          .where((photos) => whereListablePhotos(photos, access.photos)),
      ),
    ]),
  ]);
}
