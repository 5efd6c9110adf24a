import { describe, expect, it } from "vitest";
import { isSameOriginRequest } from "./same-origin";

const APP = "http://localhost:3000";
const headers = (values: Record<string, string>) => new Headers(values);

describe("isSameOriginRequest", () => {
  it("accepts our own Origin", () => {
    expect(isSameOriginRequest(headers({ origin: APP }), APP)).toBe(true);
  });

  it.each([["https://evil.example"], ["null"], ["http://localhost:3001"], ["http://localhost:3000.evil.example"]])("refuses Origin %s", (origin) => {
    expect(isSameOriginRequest(headers({ origin }), APP)).toBe(false);
  });

  it("judges by Sec-Fetch-Site when there is no Origin", () => {
    expect(isSameOriginRequest(headers({ "sec-fetch-site": "cross-site" }), APP)).toBe(false);
    expect(isSameOriginRequest(headers({ "sec-fetch-site": "same-site" }), APP)).toBe(false);
    expect(isSameOriginRequest(headers({ "sec-fetch-site": "same-origin" }), APP)).toBe(true);
    expect(isSameOriginRequest(headers({}), APP)).toBe(true);
  });
});
