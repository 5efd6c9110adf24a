import { describe, expect, it } from "vitest";
import { descriptorDistance, descriptorToBytes } from "./face-descriptor";
import { NamedCentroidIndex } from "./named-centroid-index";

/** The list "is this X?" used before the index: every distance, filtered, sorted, cut. */
function reference(query: Float32Array, named: Array<{ personId: string; name: string; centroid: Float32Array }>, rejected: Set<string>, maxDistance: number, limit: number) {
  return named
    .filter((person) => !rejected.has(person.personId))
    .map((person) => ({ personId: person.personId, name: person.name, distance: descriptorDistance(query, person.centroid) }))
    .filter((candidate) => candidate.distance <= maxDistance)
    .sort((a, b) => a.distance - b.distance || (a.personId < b.personId ? -1 : 1))
    .slice(0, limit);
}

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) % 4_294_967_296;
    return state / 4_294_967_296;
  };
}

describe("NamedCentroidIndex", () => {
  it("answers exactly what the sorted list answered, from decoded and from stored centroids", () => {
    const next = random(7);
    const vector = () => Float32Array.from({ length: 128 }, () => (next() - 0.5) * 0.12);
    const named = Array.from({ length: 400 }, (_, index) => ({ personId: `p${String(index).padStart(3, "0")}`, name: `P${index}`, centroid: vector() }));
    // Two people at the very same place: the tie goes to the smaller id, as the list's sort did.
    named[17].centroid = Float32Array.from(named[3].centroid);
    const fromDecoded = NamedCentroidIndex.of(named);
    const fromStored = NamedCentroidIndex.fromStored(named.map((person) => ({ ...person, centroid: descriptorToBytes(person.centroid) })));
    const rejected = new Set(["p005", "p100"]);
    for (let round = 0; round < 50; round += 1) {
      const query = round === 0 ? Float32Array.from(named[3].centroid) : vector();
      for (const [reach, limit] of [[0.55, 3], [0.6, 5], [0.45, 1]] as const) {
        const expected = reference(query, named, rejected, reach, limit);
        expect(fromDecoded.nearest(query, rejected, reach, limit)).toEqual(expected);
        expect(fromStored.nearest(query, rejected, reach, limit)).toEqual(expected);
      }
    }
    expect(fromDecoded.nearest(Float32Array.from(named[3].centroid), new Set(), 0.55, 2).map((match) => match.personId)).toEqual(["p003", "p017"]);
  });

  it("keeps the edge of reach where the square root puts it", () => {
    const at = (value: number) => {
      const descriptor = new Float32Array(128);
      descriptor[0] = value;
      return descriptor;
    };
    const index = NamedCentroidIndex.of([{ personId: "edge", name: "Edge", centroid: at(0.5) }]);
    expect(index.nearest(at(0), new Set(), 0.5, 3).map((match) => match.personId)).toEqual(["edge"]);
    expect(index.nearest(at(0), new Set(), 0.4999, 3)).toEqual([]);
    expect(index.size).toBe(1);
  });
});
