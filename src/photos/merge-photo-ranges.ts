import type { SelectQueryBuilder } from "kysely";
import type { DatabaseHandle } from "@/src/db/client";
import type { Database, PhotoRow } from "@/src/db/database";

/**
 * One page of photos from index ranges that do not overlap, each already ordered by (sort_at, id)
 * and cut to the page size: their UNION ALL, ordered again and cut. Each range stays an index walk
 * that stops after a page (PostgreSQL plans a Merge Append; SQLite sorts at most `limit` rows per
 * range), where one OR across them would read and sort every matching row. Used by the gallery's
 * lists, search and browse pages.
 */
export function mergePhotoRanges(db: DatabaseHandle, ranges: Array<SelectQueryBuilder<Database, "photos", PhotoRow>>, limit: number, order: "asc" | "desc" = "desc"): Promise<PhotoRow[]> {
  if (ranges.length === 0) return Promise.resolve([]);
  if (ranges.length === 1) return ranges[0].execute();
  const [first, ...rest] = ranges.map((range) => db.selectFrom(range.as("photo_range")).selectAll());
  return rest
    .reduce((union, next) => union.unionAll(next), first)
    .orderBy("sort_at", order)
    .orderBy("id", order)
    .limit(limit)
    .execute();
}
