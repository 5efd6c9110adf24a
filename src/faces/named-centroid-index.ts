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

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Dimensions summed between two looks at the bound (DESCRIPTOR_LENGTH is a multiple of it). */
const BLOCK = 16;

export class NamedCentroidIndex {
  private constructor(
    private readonly personIds: readonly string[],
    private readonly names: readonly string[],
    private readonly vectors: Float32Array,
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
  static fromStored(rows: ReadonlyArray<{ personId: string; name: string; centroid: Uint8Array }>): NamedCentroidIndex {
    const vectors = new Float32Array(rows.length * DESCRIPTOR_LENGTH);
    const bytes = new Uint8Array(vectors.buffer);
    rows.forEach((row, index) => {
      if (LITTLE_ENDIAN && row.centroid.byteLength === DESCRIPTOR_LENGTH * 4) bytes.set(row.centroid, index * DESCRIPTOR_LENGTH * 4);
      else vectors.set(descriptorFromBytes(row.centroid), index * DESCRIPTOR_LENGTH);
    });
    return new NamedCentroidIndex(
      rows.map((row) => row.personId),
      rows.map((row) => row.name),
      vectors,
    );
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
