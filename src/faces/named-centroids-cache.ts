import type { DatabaseHandle } from "@/src/db/client";
import { onPhotosChanged } from "@/src/photos/photo-changes";
import { descriptorToBytes } from "./face-descriptor";
import { NamedCentroidIndex, type StoredNamedCentroid } from "./named-centroid-index";
import { onPeopleChanged, type PeopleChange } from "./people-changes";
import { computeCentroids } from "./person-centroids";
import { listNamedCentroidRows, listStaleCentroidPeople } from "./person-suggestions.repository";

// The owner's named, shown people's centroids, remembered as one NamedCentroidIndex per owner and
// database handle: "is this X?" at 100,000 faces spent its time reading and decoding about 2,000
// stored centroids (27-56 ms), not comparing them.
//
// A change made in this process names the owner and the people it touched (people-changes.ts: a
// face found, moved or removed, a person named, hidden, merged or split): the next ask re-reads
// only those people's rows and patches them into the index in place (NamedCentroidIndex.patch), so
// the first ask after naming someone costs a read of one row, not 2,000. A change that names nobody
// (the off switch, a user's "no") drops everything. A change to photos in this process (a purge
// takes faces with it, and the database marks their people's centroids stale) makes the next ask
// re-read the owner's stale rows, found through their own index. Another process's change (a
// worker of its own storing faces) is seen when the entry's LIFETIME_MS runs out and it is read
// whole again: a suggestion a few seconds behind costs a click, and rejections are read afresh on
// every ask.

const LIFETIME_MS = 10_000;
/** Owners remembered per database handle: at 2,000 named people an entry is about 1 MB. */
const MAX_OWNERS = 16;
/** More people than this changed since an entry was read: reading it whole is as cheap, and fits any SQL list. */
const MAX_PATCHED = 500;
/** People remembered as changed, all owners together, before everything is dropped instead (a bound on memory). */
const MAX_REMEMBERED_CHANGES = 20_000;

interface Entry {
  index: Promise<NamedCentroidIndex>;
  until: number;
  /** The number of the last change this entry has taken in (changes are numbered as announced). */
  seen: number;
}

/** A new WeakMap whenever everything is dropped: entries still loading stay in the old one, out of reach. */
let stores = new WeakMap<DatabaseHandle, Map<string, Entry>>();
/** Changes announced in this process so far; each has the next number. */
let changeCount = 0;
/** Per owner, each person changed in this process and the number of their last change. */
let changedPeople = new Map<string, Map<string, number>>();
let rememberedChanges = 0;
/** The number of the last change to photos: entries older than it read their owner's stale rows again. */
let lastPhotosChange = 0;

function dropEverything(): void {
  stores = new WeakMap();
  changedPeople = new Map();
  rememberedChanges = 0;
  changeCount += 1;
}

function takeIn(change: PeopleChange | null): void {
  if (!change) return dropEverything();
  changeCount += 1;
  let people = changedPeople.get(change.ownerId);
  if (!people) changedPeople.set(change.ownerId, (people = new Map()));
  for (const personId of change.personIds) {
    if (!people.has(personId)) rememberedChanges += 1;
    people.set(personId, changeCount);
  }
  if (rememberedChanges > MAX_REMEMBERED_CHANGES) dropEverything();
}

onPeopleChanged(takeIn);
onPhotosChanged(() => {
  changeCount += 1;
  lastPhotosChange = changeCount;
});

/** Stored rows made ready to lay in: a stale row (faces changed by a purge) is computed from the faces, not stored: a read may not write. */
async function readyRows(db: DatabaseHandle, rows: Awaited<ReturnType<typeof listNamedCentroidRows>>): Promise<StoredNamedCentroid[]> {
  const staleIds = rows.filter((row) => row.isStale === 1 || !row.centroid).map((row) => row.personId);
  const recomputed = staleIds.length > 0 ? await computeCentroids(db, staleIds) : new Map<string, { centroid: Float32Array }>();
  return rows.flatMap((row) => {
    if (row.isStale !== 1 && row.centroid) return [{ personId: row.personId, name: row.name ?? "", centroid: row.centroid }];
    const fresh = recomputed.get(row.personId);
    return fresh ? [{ personId: row.personId, name: row.name ?? "", centroid: descriptorToBytes(fresh.centroid) }] : [];
  });
}

async function loadIndex(db: DatabaseHandle, ownerId: string): Promise<NamedCentroidIndex> {
  return NamedCentroidIndex.fromStored(await readyRows(db, await listNamedCentroidRows(db, ownerId)));
}

/** `index` with these people (and, after a change to photos, the owner's stale ones) read again and patched in. */
async function patchIndex(db: DatabaseHandle, ownerId: string, index: NamedCentroidIndex, personIds: readonly string[], readStale: boolean): Promise<NamedCentroidIndex> {
  const ids = new Set(personIds);
  if (readStale) for (const personId of await listStaleCentroidPeople(db, ownerId)) ids.add(personId);
  if (ids.size === 0) return index;
  if (ids.size > MAX_PATCHED) return loadIndex(db, ownerId);
  index.patch(ids, await readyRows(db, await listNamedCentroidRows(db, ownerId, [...ids])));
  return index;
}

/** The owner's people changed since change number `seen`. */
function changedSince(ownerId: string, seen: number): string[] {
  const people = changedPeople.get(ownerId);
  if (!people) return [];
  return [...people].flatMap(([personId, number]) => (number > seen ? [personId] : []));
}

/** Puts `entry` last for the owner: Map keeps insertion order, so the first key is the least recently used. */
function touch(store: Map<string, Entry>, ownerId: string, entry: Entry): void {
  store.delete(ownerId);
  store.set(ownerId, entry);
}

/** Keeps a new `entry` for the owner; the least recently used go past MAX_OWNERS. A failed read is not kept. */
function keep(store: Map<string, Entry>, ownerId: string, entry: Entry): void {
  touch(store, ownerId, entry);
  while (store.size > MAX_OWNERS) store.delete(store.keys().next().value as string);
  entry.index.catch(() => {
    if (store.get(ownerId) === entry) store.delete(ownerId);
  });
}

/** The owner's named, shown people with a centroid, ready to compare (remembered and patched; see above). Never remembered inside a transaction: what it reads may not commit. */
export function namedCentroidIndexOf(db: DatabaseHandle, ownerId: string): Promise<NamedCentroidIndex> {
  if (db.isTransaction) return loadIndex(db, ownerId);
  let store = stores.get(db);
  if (!store) stores.set(db, (store = new Map()));
  const now = Date.now();
  const held = store.get(ownerId);
  const seenNow = changeCount;
  if (!held || held.until <= now) {
    const entry = { index: loadIndex(db, ownerId), until: now + LIFETIME_MS, seen: seenNow };
    keep(store, ownerId, entry);
    return entry.index;
  }
  if (held.seen < seenNow) {
    const changed = changedSince(ownerId, held.seen);
    const readStale = lastPhotosChange > held.seen;
    // Read after the changes committed (they are announced after), so the patch sees them; a change
    // announced while it reads has a later number and is patched in by the ask after it.
    const entry = { index: changed.length > 0 || readStale ? held.index.then((index) => patchIndex(db, ownerId, index, changed, readStale)) : held.index, until: held.until, seen: seenNow };
    keep(store, ownerId, entry);
    return entry.index;
  }
  touch(store, ownerId, held);
  return held.index;
}
