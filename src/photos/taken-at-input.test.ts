import { describe, expect, it } from "vitest";
import { normaliseTakenAt } from "./taken-at-input";

describe("normaliseTakenAt", () => {
  it("keeps the local time as typed, with seconds, and the offset only when given", () => {
    expect(normaliseTakenAt("2019-05-03T14:32")).toBe("2019-05-03T14:32:00");
    expect(normaliseTakenAt("2019-05-03T14:32:10")).toBe("2019-05-03T14:32:10");
    expect(normaliseTakenAt("2019-05-03T14:32+02:00")).toBe("2019-05-03T14:32:00+02:00");
    expect(normaliseTakenAt("2019-05-03T23:59:59-09:30")).toBe("2019-05-03T23:59:59-09:30");
    expect(normaliseTakenAt("2019-05-03T00:00Z")).toBe("2019-05-03T00:00:00+00:00");
    expect(normaliseTakenAt("2024-02-29T12:00")).toBe("2024-02-29T12:00:00");
  });

  it("refuses what is no real date and time", () => {
    for (const text of [
      "",
      "2019-05-03",
      "2019-02-29T12:00",
      "2019-04-31T12:00",
      "2019-13-01T12:00",
      "2019-05-03T24:00",
      "2019-05-03T12:60",
      "2019-05-03T12:00:60",
      "1800-01-01T12:00",
      "2201-01-01T12:00",
      "2019-05-03T12:00+15:00",
      "2019-05-03T12:00+14:30",
      "2019-05-03 12:00",
      "２０１９-05-03T12:00",
      "2019-05-03T12:00\u0000",
    ]) {
      expect(normaliseTakenAt(text), JSON.stringify(text)).toBeNull();
    }
  });
});
