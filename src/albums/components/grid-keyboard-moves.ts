import { type KeyboardCoordinateGetter, type UniqueIdentifier } from "@dnd-kit/core";
import { hasSortableData } from "@dnd-kit/sortable";

/** The keys that move a lifted photo, and how: one place along the order, or one visual row. */
const MOVES: Record<string, "previous" | "next" | "row-up" | "row-down"> = {
  ArrowLeft: "previous",
  ArrowRight: "next",
  ArrowUp: "row-up",
  ArrowDown: "row-down",
};

/** How many tiles sit in the grid's first row: the tiles whose top is the first tile's (to a pixel). */
export function columnsOf(tops: number[]): number {
  if (tops.length === 0) return 1;
  const columns = tops.findIndex((top) => Math.abs(top - tops[0]) > 1);
  return columns === -1 ? tops.length : columns;
}

/**
 * Where a key takes a photo now at `from` in a grid of `count` tiles, `columns` to a row: Left and
 * Right one place; Up and Down the same column one row away, or the last tile when the row below is
 * shorter. Null when it cannot go that way (first place, top row, last row, a one-row grid).
 */
export function targetIndex(key: string, from: number, count: number, columns: number): number | null {
  const move = MOVES[key];
  if (!move || from < 0 || from >= count) return null;
  const row = Math.floor(from / columns);
  const lastRow = Math.floor((count - 1) / columns);
  switch (move) {
    case "previous":
      return from > 0 ? from - 1 : null;
    case "next":
      return from < count - 1 ? from + 1 : null;
    case "row-up":
      return row > 0 ? from - columns : null;
    case "row-down":
      return row < lastRow ? Math.min(from + columns, count - 1) : null;
  }
}

/**
 * dnd-kit's keyboard coordinates for a sortable grid, moving by the grid as a person sees it.
 * dnd-kit's own (sortableKeyboardCoordinates) looks for the nearest tile in the key's direction, so
 * Up and Down in a one-row grid found nothing and dropped the photo where it was, and Right at the
 * end of a row went nowhere. Here the lifted photo's place (where it is over now) moves by one for
 * Left and Right and by one row for Up and Down, the row's length read from the tiles' layout, and
 * the photo is carried to that place's tile.
 */
export const gridKeyboardCoordinates: KeyboardCoordinateGetter = (event, { context: { active, over, droppableRects } }) => {
  if (!(event.code in MOVES)) return undefined;
  event.preventDefault();
  if (!active || !hasSortableData(active)) return undefined;
  const items: UniqueIdentifier[] = active.data.current.sortable.items;
  const rects = items.map((id) => droppableRects.get(id));
  if (rects.some((rect) => !rect)) return undefined;
  const from = items.indexOf(over?.id ?? active.id);
  const to = targetIndex(event.code, from, items.length, columnsOf(rects.map((rect) => rect!.top)));
  if (to === null) return undefined;
  const rect = rects[to]!;
  return { x: rect.left, y: rect.top };
};
