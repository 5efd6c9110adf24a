import { createHash } from "node:crypto";
import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Which consent text each user answered (issue 32: "a changed consent text asks again"): the
// SHA-256 (hex) of the words they were shown (src/faces/face-settings.ts, consentTextVersion). An
// answer "agreed" counts only while it names the words the site asks now; when the admin changes
// them, nothing more of that user's is looked at until they answer the new words (what was found
// stays until they say no).
//
// Existing answers were given to the words the site shows today: the admin's (trimmed), or the
// default as it is written at this migration (copied here, frozen). They are filled with those
// words' digest, so nobody is asked again by the upgrade itself.

const DEFAULT_CONSENT_TEXT_AT_THIS_MIGRATION =
  "This site can find faces in your photos and group them into people, so you can name them and find everyone in your library. " +
  "Faces are found on this server and never sent anywhere. Only you see your people unless an admin lets members see named people in photos they may already see; " +
  "share links, feeds and link previews never show them. You can change your mind at any time: saying no deletes the faces found in your photos.";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("face_consents").addColumn("text_sha256", "text").execute();
  const stored: { value: string } | undefined = await db.selectFrom("settings").select("value").where("key", "=", "faces.consent_text").executeTakeFirst();
  const text = stored?.value.trim() || DEFAULT_CONSENT_TEXT_AT_THIS_MIGRATION;
  await db.updateTable("face_consents").set({ text_sha256: createHash("sha256").update(text, "utf8").digest("hex") }).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("face_consents").dropColumn("text_sha256").execute();
}
