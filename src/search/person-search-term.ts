import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { Database } from "@/src/db/database";
import { splitWords } from "./search-query-parser";

// `person:"Anna"` (issue 32): photos with a face of a named person the viewer may see. Which people
// that is, is people-access.ts's answer (the service resolves the term's value to their ids); the
// photos found are cut by the one photo access rule like every other term's. Kept apart from the
// other terms so the grammar's other fields change without touching it.

/**
 * Whether a person's name answers the typed value: the value's words (folded: accents and case
 * ignored) are a run of the name's whole words. `anna`, `Anna Berg` and `berg` all name "Anna Berg".
 */
export function personNameMatches(name: string, value: string): boolean {
  const wanted = splitWords(value);
  if (wanted.length === 0) return false;
  const words = splitWords(name);
  for (let start = 0; start + wanted.length <= words.length; start += 1) {
    if (wanted.every((word, index) => words[start + index] === word)) return true;
  }
  return false;
}

/**
 * The condition on `photos` for a `person:` term resolved to these people's ids: a face of one of
 * them is in the photo. By the faces_person index (person_id, photo_id): IN starts from their
 * faces; `probe` tests photos already found another way, one lookup each.
 */
export function personCondition(eb: ExpressionBuilder<Database, "photos">, personIds: readonly string[], probe: boolean): Expression<SqlBool> {
  if (personIds.length === 0) return eb.lit(false);
  const withFace = eb.selectFrom("faces").select("faces.photo_id").where("faces.person_id", "in", [...personIds]);
  return probe ? eb.exists(withFace.whereRef("faces.photo_id", "=", "photos.id")) : eb("photos.id", "in", withFace);
}
