import { DESCRIPTOR_LENGTH, descriptorFromBytes } from "./face-descriptor";

/**
 * An owner's named people's centroids laid end to end in one Float32Array, for "is this X?"
 * (person-suggestions.ts). At 100,000 faces an owner has about 2,000 named people: one array of
 * 2,000 × 128 floats (1 MB) is walked in well under a millisecond, where 2,000 separate
 * Float32Arrays and objects cost as much again to build and to chase through memory.
 *
 * Brute force, not an index of neighbours (sqlite-vec, a k-d tree): every query compares against
 * every named person exactly as the list did, so the answers stay the same to the last bit, and
 * 2,000 × 128 is small enough that nothing cleverer is worth its upkeep (measured in the commit).
 */
export interface NamedCentroidMatch {
  personId: string;
  name: string;
  distance: number;
}

/** A named person's stored centroid: 512 bytes, float32 little-endian. */
export interface StoredNamedCentroid {
  personId: string;
  name: string;
  centroid: Uint8Array;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Puts a stored centroid in row `index` of `vectors`: its bytes copied straight in where the machine is little-endian. */
function placeStored(vectors: Float32Array, index: number, centroid: Uint8Array): void {
  if (LITTLE_ENDIAN && centroid.byteLength === DESCRIPTOR_LENGTH * 4) new Uint8Array(vectors.buffer, vectors.byteOffset).set(centroid, index * DESCRIPTOR_LENGTH * 4);
  else vectors.set(descriptorFromBytes(centroid), index * DESCRIPTOR_LENGTH);
}
/** Dimensions summed between two looks at the bound (DESCRIPTOR_LENGTH is a multiple of it). */
const BLOCK = 16;

export class NamedCentroidIndex {
  /** Each person's row, made on the first patch (asks never need it). */
  private rowOf: Map<string, number> | null = null;

  /** `vectors` may hold room for more rows than there are people (a patch that adds one grows it by half). */
  private constructor(
    private readonly personIds: string[],
    private readonly names: string[],
    private vectors: Float32Array,
  ) {}

  get size(): number {
    return this.personIds.length;
  }

  /** From centroids already decoded. */
  static of(named: ReadonlyArray<{ personId: string; name: string; centroid: ArrayLike<number> }>): NamedCentroidIndex {
    const vectors = new Float32Array(named.length * DESCRIPTOR_LENGTH);
    named.forEach((person, row) => vectors.set(person.centroid, row * DESCRIPTOR_LENGTH));
    return new NamedCentroidIndex(
      named.map((person) => person.personId),
      named.map((person) => person.name),
      vectors,
    );
  }

  /** From stored centroids (512 bytes each, float32 little-endian), copied straight into place. */
  static fromStored(rows: ReadonlyArray<StoredNamedCentroid>): NamedCentroidIndex {
    const vectors = new Float32Array(rows.length * DESCRIPTOR_LENGTH);
    rows.forEach((row, index) => placeStored(vectors, index, row.centroid));
    return new NamedCentroidIndex(
      rows.map((row) => row.personId),
      rows.map((row) => row.name),
      vectors,
    );
  }

  /**
   * Re-reads a few people in place: each of `personIds` takes their row from `rows` (stored
   * centroids read again for those people), or leaves the index when `rows` has none for them (no
   * longer named, shown or anyone); people not yet in it are added. What a change to a few people
   * does, in time proportional to them, not to everyone (the last row moves into a gap). The order
   * of the rows never changes an answer (nearest() breaks ties by person id), so the index then
   * answers exactly what a fresh read would. Called between asks: nearest() never waits, so no ask
   * sees half a patch.
   */
  patch(personIds: ReadonlySet<string>, rows: ReadonlyArray<StoredNamedCentroid>): void {
    const rowOf = (this.rowOf ??= new Map(this.personIds.map((personId, row) => [personId, row])));
    const fresh = new Map(rows.map((row) => [row.personId, row]));
    for (const personId of personIds) {
      const row = rowOf.get(personId);
      const stored = fresh.get(personId);
      if (row !== undefined && stored) {
        placeStored(this.vectors, row, stored.centroid);
        this.names[row] = stored.name;
      } else if (row !== undefined) {
        this.removeRow(row, rowOf);
      } else if (stored) {
        this.appendRow(stored, rowOf);
      }
    }
  }

  private removeRow(row: number, rowOf: Map<string, number>): void {
    const last = this.personIds.length - 1;
    rowOf.delete(this.personIds[row]);
    if (row !== last) {
      this.vectors.copyWithin(row * DESCRIPTOR_LENGTH, last * DESCRIPTOR_LENGTH, (last + 1) * DESCRIPTOR_LENGTH);
      this.personIds[row] = this.personIds[last];
      this.names[row] = this.names[last];
      rowOf.set(this.personIds[row], row);
    }
    this.personIds.pop();
    this.names.pop();
  }

  private appendRow(stored: StoredNamedCentroid, rowOf: Map<string, number>): void {
    const row = this.personIds.length;
    if ((row + 1) * DESCRIPTOR_LENGTH > this.vectors.length) {
      const grown = new Float32Array(Math.max(row + 1, Math.ceil(row * 1.5)) * DESCRIPTOR_LENGTH);
      grown.set(this.vectors.subarray(0, row * DESCRIPTOR_LENGTH));
      this.vectors = grown;
    }
    placeStored(this.vectors, row, stored.centroid);
    this.personIds.push(stored.personId);
    this.names.push(stored.name);
    rowOf.set(stored.personId, row);
  }

  /**
   * The `limit` nearest named people within `maxDistance` of `query`, leaving out `rejected`,
   * nearest first (ties by person id). Distances are summed as descriptorDistance sums them, so
   * the order and the edge of reach are exactly the list's.
   */
  nearest(query: ArrayLike<number>, rejected: ReadonlySet<string>, maxDistance: number, limit: number): NamedCentroidMatch[] {
    const found: Array<NamedCentroidMatch & { sum: number }> = [];
    if (limit <= 0) return found;
    const vectors = this.vectors;
    // Squares are compared first (no square root for the many out of reach), with a hair of slack
    // so the decision at the edge is still the square root's.
    const slack = (squared: number) => squared * (1 + 1e-9) + 1e-12;
    const reachSquared = slack(maxDistance * maxDistance);
    let bound = reachSquared;
    for (let row = 0; row < this.personIds.length; row += 1) {
      const base = row * DESCRIPTOR_LENGTH;
      // Summed in descriptorDistance's order; a partial sum only grows, so a person already past
      // the bound (out of reach, or farther than the last of a full list) is left a block early.
      let sum = 0;
      for (let block = 0; block < DESCRIPTOR_LENGTH && sum <= bound; block += BLOCK) {
        for (let index = block; index < block + BLOCK; index += 1) {
          const difference = query[index] - vectors[base + index];
          sum += difference * difference;
        }
      }
      if (sum > bound) continue;
      const distance = Math.sqrt(sum);
      if (distance > maxDistance) continue;
      const personId = this.personIds[row];
      if (rejected.has(personId)) continue;
      const full = found.length === limit;
      const last = found[found.length - 1];
      if (full && (distance > last.distance || (distance === last.distance && personId > last.personId))) continue;
      if (full) found.pop();
      let at = found.length;
      while (at > 0 && (found[at - 1].distance > distance || (found[at - 1].distance === distance && found[at - 1].personId > personId))) at -= 1;
      found.splice(at, 0, { personId, name: this.names[row], distance, sum });
      if (found.length === limit) bound = Math.min(reachSquared, slack(found[limit - 1].sum));
    }
    return found.map(({ personId, name, distance }) => ({ personId, name, distance }));
  }
}
