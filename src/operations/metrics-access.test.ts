import { describe, expect, it } from "vitest";
import { decideMetricsAccess } from "./metrics-access";

const TOKEN = "metrics-token-0123456789abcdef";

describe("decideMetricsAccess", () => {
  it("is off without a configured token, whatever the caller sends", () => {
    expect(decideMetricsAccess(undefined, `Bearer ${TOKEN}`)).toBe("metrics off");
    expect(decideMetricsAccess("", null)).toBe("metrics off");
  });

  it("allows only the exact token as a Bearer credential", () => {
    expect(decideMetricsAccess(TOKEN, `Bearer ${TOKEN}`)).toBe("allowed");
    expect(decideMetricsAccess(TOKEN, `bearer   ${TOKEN}`)).toBe("allowed");
    for (const header of [null, "", `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN, "Bearer", "Bearer a\u0000b"]) {
      expect(decideMetricsAccess(TOKEN, header), String(header)).toBe("refused");
    }
  });

  it("refuses a huge header without trouble", () => {
    expect(decideMetricsAccess(TOKEN, `Bearer ${"a".repeat(100_000)}`)).toBe("refused");
  });
});
