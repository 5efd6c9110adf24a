import { describe, expect, it } from "vitest";
import { takenAtInstant } from "./taken-instant";

describe("takenAtInstant", () => {
  it("reads a local time in the zone of the place", () => {
    // The corpus's Arezzo photos: 16:28:39 in October is summer time, UTC+2.
    expect(takenAtInstant("2008-10-22T16:28:39", "Europe/Rome")).toBe("2008-10-22T14:28:39.000Z");
    expect(takenAtInstant("2008-01-22T16:28:39", "Europe/Rome")).toBe("2008-01-22T15:28:39.000Z");
    expect(takenAtInstant("2024-01-01T12:00:00", "Asia/Kathmandu")).toBe("2024-01-01T06:15:00.000Z");
    // At sea: the nautical zone (its sign is POSIX's, the opposite of the offset).
    expect(takenAtInstant("2024-07-01T12:00:00", "Etc/GMT+3")).toBe("2024-07-01T15:00:00.000Z");
  });

  it("prefers the offset the camera recorded over the zone", () => {
    expect(takenAtInstant("2008-10-22T16:28:39+05:30", "Europe/Rome")).toBe("2008-10-22T10:58:39.000Z");
    expect(takenAtInstant("2008-10-22T16:28:39-03:00", null)).toBe("2008-10-22T19:28:39.000Z");
  });

  it("takes the first of a repeated hour and reads a skipped hour with the offset before the change", () => {
    expect(takenAtInstant("2024-10-27T02:30:00", "Europe/Rome")).toBe("2024-10-27T00:30:00.000Z");
    expect(takenAtInstant("2024-03-31T02:30:00", "Europe/Rome")).toBe("2024-03-31T01:30:00.000Z");
  });

  it("is null without an offset or a known zone, and for text that is no stored date", () => {
    expect(takenAtInstant("2024-07-01T12:00:00", null)).toBeNull();
    expect(takenAtInstant("2024-07-01T12:00:00", "Nowhere/Nothing")).toBeNull();
    expect(takenAtInstant(null, "Europe/Rome")).toBeNull();
    expect(takenAtInstant("yesterday", "Europe/Rome")).toBeNull();
  });
});
