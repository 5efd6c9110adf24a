import { describe, expect, it } from "vitest";
import { peopleInPhoto } from "./photo-people-list";

describe("peopleInPhoto", () => {
  it("lists each person once, named by name first, then the unnamed, and leaves out faces with no person", () => {
    const faces = [
      { personId: "u1", personName: null },
      { personId: "b", personName: "Bo" },
      { personId: null, personName: null },
      { personId: "a", personName: "Ada" },
      { personId: "b", personName: "Bo" },
    ];
    expect(peopleInPhoto(faces)).toEqual([
      { id: "a", name: "Ada" },
      { id: "b", name: "Bo" },
      { id: "u1", name: null },
    ]);
  });
});
