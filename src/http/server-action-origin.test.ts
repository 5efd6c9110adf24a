import { describe, expect, it } from "vitest";
import { isServerActionOriginAllowed } from "./server-action-origin";

const APP = "http://localhost:3000";
const headers = (values: Record<string, string>) => new Headers(values);

// SECURITY.md 62: an action's POST from another site, or from no page, is refused before Next.js's
// own check (which answers 500) sees it.
describe("isServerActionOriginAllowed", () => {
  it("accepts our own Origin asking our own host", () => {
    expect(isServerActionOriginAllowed(headers({ origin: APP, host: "localhost:3000" }), APP)).toBe(true);
    expect(isServerActionOriginAllowed(headers({ origin: APP, host: "127.0.0.1:3000", "x-forwarded-host": "localhost:3000, proxy" }), APP)).toBe(true);
  });

  it("refuses a missing Origin, even where an API write would pass (no browser page sends none)", () => {
    expect(isServerActionOriginAllowed(headers({ host: "localhost:3000" }), APP)).toBe(false);
    expect(isServerActionOriginAllowed(headers({ host: "localhost:3000", "sec-fetch-site": "same-origin" }), APP)).toBe(false);
  });

  it.each([["https://evil.example"], ["null"], ["http://localhost:3001"], ["http://localhost:3000.evil.example"], ["not a url"], [""]])("refuses Origin %j", (origin) => {
    expect(isServerActionOriginAllowed(headers({ origin, host: "localhost:3000" }), APP)).toBe(false);
  });

  it("refuses our Origin when the host Next.js compares it with is another (it would answer 500)", () => {
    expect(isServerActionOriginAllowed(headers({ origin: APP, host: "evil.example" }), APP)).toBe(false);
    expect(isServerActionOriginAllowed(headers({ origin: APP, host: "localhost:3000", "x-forwarded-host": "evil.example" }), APP)).toBe(false);
    expect(isServerActionOriginAllowed(headers({ origin: APP }), APP)).toBe(false);
  });
});
