import { describe, expect, it } from "vitest";
import { MAX_SUGGESTIONS, namedCentroids, rankSuggestions, SUGGESTION_DISTANCE, suggestionDistance } from "./person-suggestions";

function descriptorAt(value: number, axis = 0): Float32Array {
  const descriptor = new Float32Array(128);
  descriptor[axis] = value;
  return descriptor;
}

describe("rankSuggestions", () => {
  const named = namedCentroids(
    new Map([
      ["ada", { name: "Ada", descriptors: [descriptorAt(0), descriptorAt(0.2)] }],
      ["bo", { name: "Bo", descriptors: [descriptorAt(0.5)] }],
      ["cy", { name: "Cy", descriptors: [descriptorAt(3)] }],
      ["nobody", { name: "No faces", descriptors: [] }],
    ]),
  );

  it("offers the named people within reach of the unnamed centroid, nearest first, ranked", () => {
    expect(rankSuggestions([descriptorAt(0.35), descriptorAt(0.45)], named, new Set(), SUGGESTION_DISTANCE)).toEqual([
      { personId: "bo", name: "Bo", rank: 1 },
      { personId: "ada", name: "Ada", rank: 2 },
    ]);
  });

  it("never offers a person the owner said no to, nor one out of reach", () => {
    expect(rankSuggestions([descriptorAt(0.4)], named, new Set(["bo"]), SUGGESTION_DISTANCE)).toEqual([{ personId: "ada", name: "Ada", rank: 1 }]);
    expect(rankSuggestions([descriptorAt(1.5)], named, new Set(), SUGGESTION_DISTANCE)).toEqual([]);
  });

  it("offers nothing for a face without a descriptor (drawn by hand)", () => {
    expect(rankSuggestions([], named, new Set(), SUGGESTION_DISTANCE)).toEqual([]);
  });

  it("offers at most MAX_SUGGESTIONS", () => {
    const crowd = namedCentroids(new Map(Array.from({ length: 6 }, (_, index) => [`p${index}`, { name: `P${index}`, descriptors: [descriptorAt(index / 100, 1)] }])));
    expect(rankSuggestions([descriptorAt(0)], crowd, new Set(), SUGGESTION_DISTANCE).map((each) => each.personId)).toEqual(["p0", "p1", "p2"].slice(0, MAX_SUGGESTIONS));
  });

  it("reaches at least as far as the owner's match threshold", () => {
    expect(suggestionDistance(0.38)).toBe(SUGGESTION_DISTANCE);
    expect(suggestionDistance(0.6)).toBe(0.6);
  });
});
