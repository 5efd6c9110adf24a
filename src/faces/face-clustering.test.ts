import { describe, expect, it } from "vitest";
import { assignFacesToPeople, centroidOf } from "./face-clustering";
import { descriptorDistance, descriptorFromBytes, descriptorToBytes } from "./face-descriptor";
import { capFaces } from "./face-limits";

function descriptorAt(value: number, axis = 0): Float32Array {
  const descriptor = new Float32Array(128);
  descriptor[axis] = value;
  return descriptor;
}

describe("assignFacesToPeople", () => {
  const people = [
    { personId: "ada", centroid: descriptorAt(0) },
    { personId: "bo", centroid: descriptorAt(1) },
  ];

  it("joins the nearest person within the threshold, else starts a new one", () => {
    const decisions = assignFacesToPeople([descriptorAt(0.1), descriptorAt(0.5)], people, 0.38);
    expect(decisions.map((decision) => decision.personId)).toEqual(["ada", null]);
    expect(decisions[0].distance).toBeCloseTo(0.1);
  });

  it("never gives two faces of one photo the same person: the closer wins", () => {
    const decisions = assignFacesToPeople([descriptorAt(0.3), descriptorAt(0.05)], people, 0.38);
    expect(decisions.map((decision) => decision.personId)).toEqual([null, "ada"]);
  });

  it("a face on the threshold joins; just past it does not", () => {
    expect(assignFacesToPeople([descriptorAt(0.38)], people, 0.38)[0].personId).toBe("ada");
    expect(assignFacesToPeople([descriptorAt(0.381)], people, 0.38)[0].personId).toBeNull();
  });
});

describe("descriptors", () => {
  it("round-trip through their 512 stored bytes", () => {
    const descriptor = Float32Array.from({ length: 128 }, (_, index) => Math.sin(index) / 7);
    const bytes = descriptorToBytes(descriptor);
    expect(bytes.length).toBe(512);
    expect(descriptorDistance(descriptorFromBytes(bytes), descriptor)).toBe(0);
  });

  it("are read from a slice of a larger buffer (as a database driver hands them over) without its neighbours", () => {
    const descriptor = Float32Array.from({ length: 128 }, (_, index) => index / 128);
    const pool = Buffer.concat([Buffer.alloc(3, 9), descriptorToBytes(descriptor), Buffer.alloc(64, 9)]);
    expect(descriptorDistance(descriptorFromBytes(pool.subarray(3, 3 + 512)), descriptor)).toBe(0);
  });

  it("refuses a descriptor of the wrong length", () => {
    expect(() => descriptorToBytes([1, 2, 3])).toThrow(/128/);
  });

  it("a centroid is the mean", () => {
    expect(centroidOf([descriptorAt(0), descriptorAt(1)])[0]).toBeCloseTo(0.5);
  });
});

describe("capFaces", () => {
  it("keeps the strongest 100 of a crowd and says it was capped", () => {
    const crowd = Array.from({ length: 200 }, (_, index) => ({ score: index / 200 }));
    const { faces, isCapped } = capFaces(crowd);
    expect(faces).toHaveLength(100);
    expect(Math.min(...faces.map((face) => face.score))).toBe(0.5);
    expect(isCapped).toBe(true);
    expect(capFaces(crowd.slice(0, 100)).isCapped).toBe(false);
  });
});
