import { describe, expect, it } from "vitest";
import { descriptorDistance, descriptorFromBytes, descriptorToBytes } from "./face-descriptor";
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

  it("patched with some people read again (renamed, moved, gone, new) answers what a fresh index of the same people answers", () => {
    const next = random(11);
    const vector = () => Float32Array.from({ length: 128 }, () => (next() - 0.5) * 0.12);
    const stored = (personId: string, name: string) => ({ personId, name, centroid: descriptorToBytes(vector()) });
    const before = Array.from({ length: 200 }, (_, index) => stored(`p${String(index).padStart(3, "0")}`, `P${index}`));
    // p010 renamed and moved, p020 no longer named (not read back), p030 merged away, n001 newly named.
    const reread = [stored("p010", "Renamed"), stored("n001", "New")];
    const after = [...before.filter((row) => !["p010", "p020", "p030"].includes(row.personId)), ...reread];
    const patched = NamedCentroidIndex.fromStored(before);
    // Asked once before the patch, as a remembered index is.
    patched.nearest(vector(), new Set(), 0.55, 3);
    patched.patch(new Set(["p010", "p020", "p030", "n001"]), reread);
    const fresh = NamedCentroidIndex.fromStored(after);
    expect(patched.size).toBe(after.length);
    for (let round = 0; round < 50; round += 1) {
      const query = round < 2 ? descriptorFromBytes(reread[round].centroid) : vector();
      for (const [reach, limit] of [[0.55, 3], [0.6, 5], [2, 200]] as const) {
        expect(patched.nearest(query, new Set(), reach, limit)).toEqual(fresh.nearest(query, new Set(), reach, limit));
      }
    }
    expect(patched.nearest(descriptorFromBytes(reread[0].centroid), new Set(), 0.01, 1)).toEqual([{ personId: "p010", name: "Renamed", distance: 0 }]);
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
