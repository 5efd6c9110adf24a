import type { PhotoLabel } from "@/src/db/database";

/** The colour labels as people read them (the editor's picker, the library's filter). */
export const LABEL_NAMES: Record<PhotoLabel, string> = { red: "Red", yellow: "Yellow", green: "Green", blue: "Blue", purple: "Purple" };
