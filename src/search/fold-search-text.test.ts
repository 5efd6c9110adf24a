import { describe, expect, it } from "vitest";
import { foldSearchText } from "./fold-search-text";

describe("foldSearchText", () => {
  it("ignores accents and case", () => {
    expect(foldSearchText("Café CRÈME Ångström")).toBe("cafe creme angstrom");
    expect(foldSearchText("ﬁeld")).toBe("field");
  });
});
