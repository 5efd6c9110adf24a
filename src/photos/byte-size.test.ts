import { describe, expect, it } from "vitest";
import { formatByteSize } from "./byte-size";

describe("formatByteSize", () => {
  it("reads as a person would say it", () => {
    expect(formatByteSize(0)).toBe("0 bytes");
    expect(formatByteSize(999)).toBe("999 bytes");
    expect(formatByteSize(1000)).toBe("1 kB");
    expect(formatByteSize(812_345)).toBe("812 kB");
    expect(formatByteSize(12_449_000)).toBe("12.4 MB");
    expect(formatByteSize(1_070_000_000)).toBe("1.07 GB");
    expect(formatByteSize(3.2e15)).toBe("3200 TB");
  });
});
