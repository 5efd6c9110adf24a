import { describe, expect, it } from "vitest";
import { browsePath, parseBrowseYear, yearOfDate } from "./browse-paths";

describe("browse paths", () => {
  it("reads a year only from four digits within the years a page shows", () => {
    expect(parseBrowseYear("2019")).toBe(2019);
    for (const segment of ["abcd", "99999", "0042", "1066", "3000", "2019 ", " 2019", "２０１９", "", "20.9"]) expect(parseBrowseYear(segment), segment).toBeNull();
  });

  it("takes a photo's year from the digits of its date, never through a time zone", () => {
    expect(yearOfDate("2019-12-31T23:59:59")).toBe(2019);
    expect(yearOfDate("2020-01-01T00:30:00+02:00")).toBe(2020);
    expect(yearOfDate(null)).toBeNull();
    expect(yearOfDate("garbage")).toBeNull();
  });

  it("writes each kind's address, the key encoded", () => {
    expect(browsePath("camera", "canon-eos-40d")).toBe("/cameras/canon-eos-40d");
    expect(browsePath("lens", "a/b")).toBe("/lenses/a%2Fb");
    expect(browsePath("year", "2019")).toBe("/years/2019");
  });
});
