import { describe, expect, it } from "vitest";
import { changedFields } from "./changed-fields";

describe("changed fields", () => {
  it("keeps only what changed, before and after", () => {
    expect(changedFields({ title: "a", tags: ["x"], note: null }, { title: "b", tags: ["x"], note: null })).toEqual({
      before: { title: "a" },
      after: { title: "b" },
    });
    expect(changedFields<{ allow: boolean | null }>({ allow: true }, { allow: null })).toEqual({ before: { allow: true }, after: { allow: null } });
  });
});
