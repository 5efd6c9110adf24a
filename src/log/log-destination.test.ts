import { describe, expect, it } from "vitest";
import { chooseLogFormat } from "./log-destination";

describe("chooseLogFormat", () => {
  it("is readable in a terminal and JSON in a pipe when LOG_FORMAT is unset", () => {
    expect(chooseLogFormat(undefined, true)).toBe("pretty");
    expect(chooseLogFormat(undefined, false)).toBe("json");
  });

  it("follows LOG_FORMAT whatever stdout is", () => {
    expect(chooseLogFormat("json", true)).toBe("json");
    expect(chooseLogFormat("pretty", false)).toBe("pretty");
  });
});
