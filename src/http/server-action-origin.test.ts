import { describe, expect, it } from "vitest";
import { isServerActionOriginAllowed } from "./server-action-origin";

const APP = "http://localhost:3000";
const headers = (values: Record<string, string>) => new Headers(values);

// SECURITY.md 62: an action's POST from another site, or from no page, is refused before Next.js's
// own check (which answers 500) sees it.
describe("isServerActionOriginAllowed", () => {
  it("accepts our own Origin asking our own host", () => {
    expect(isServerActionOriginAllowed(headers({ origin: APP, host: "localhost:3000" }))).toBe(true);
    expect(isServerActionOriginAllowed(headers({ origin: APP, host: "127.0.0.1:3000", "x-forwarded-host": "localhost:3000, proxy" }))).toBe(true);
  });

  it("accepts a page served under another name of the same server, as Next.js does (not tied to NEXTAUTH_URL)", () => {
    expect(isServerActionOriginAllowed(headers({ origin: "http://192.168.1.20:3000", host: "192.168.1.20:3000" }))).toBe(true);
    expect(isServerActionOriginAllowed(headers({ origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }))).toBe(true);
  });

  it("refuses a missing Origin, even where an API write would pass (no browser page sends none)", () => {
    expect(isServerActionOriginAllowed(headers({ host: "localhost:3000" }))).toBe(false);
    expect(isServerActionOriginAllowed(headers({ host: "localhost:3000", "sec-fetch-site": "same-origin" }))).toBe(false);
  });

  it.each([["https://evil.example"], ["null"], ["http://localhost:3001"], ["http://localhost:3000.evil.example"], ["not a url"], [""]])("refuses Origin %j", (origin) => {
    expect(isServerActionOriginAllowed(headers({ origin, host: "localhost:3000" }))).toBe(false);
  });

  it("refuses an Origin that is not the host asked (Next.js would answer 500)", () => {
    expect(isServerActionOriginAllowed(headers({ origin: APP, host: "evil.example" }))).toBe(false);
    expect(isServerActionOriginAllowed(headers({ origin: APP, host: "localhost:3000", "x-forwarded-host": "evil.example" }))).toBe(false);
    expect(isServerActionOriginAllowed(headers({ origin: APP }))).toBe(false);
  });
});
