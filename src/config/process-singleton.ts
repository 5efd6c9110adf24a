/**
 * Process-wide singletons, one way. Next.js may bundle a server module once per route bundle, so a
 * module-level `let` would exist once per copy; the database client, the worker, the logger and the
 * change listeners must exist once per process. Each lives on `globalThis` under
 * `Symbol.for("contact-sheet.<name>")`: every bundle copy, and server.mjs (plain JavaScript, no
 * bundle, which reads "hot-media" and "anonymous-pages"), names the same slot.
 */

const slots = globalThis as unknown as Record<symbol, unknown>;

/** The key of a process-wide slot, for code outside this helper that must read it (server.mjs spells it out itself). */
export function processSlotKey(name: string): symbol {
  return Symbol.for(`contact-sheet.${name}`);
}

/** The one `T` of this process under `name`, made by `create` on first use (a throw leaves the slot empty). */
export function processSingleton<T>(name: string, create: () => T): T {
  const key = processSlotKey(name);
  if (!(key in slots)) slots[key] = create();
  return slots[key] as T;
}

export interface ProcessSlot<T> {
  get(): T | undefined;
  /** Puts `value` in the slot; undefined empties it (closing the database, a test swapping the logger). */
  set(value: T | undefined): void;
}

/** A slot whose value is replaced or emptied, not only made once: the same key as processSingleton's. */
export function processSlot<T>(name: string): ProcessSlot<T> {
  const key = processSlotKey(name);
  return {
    get: () => slots[key] as T | undefined,
    set: (value) => {
      if (value === undefined) delete slots[key];
      else slots[key] = value;
    },
  };
}
