import { describe, expect, it } from "vitest";
import { jsonError } from "./json-error";

describe("jsonError", () => {
  it("asks a client to come back after 5 s on every 503, also when the thrower named no header", () => {
    const response = jsonError("SERVICE_UNAVAILABLE", "Object storage is unavailable");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
  });

  it("keeps a Retry-After the thrower chose, and adds none to other errors", () => {
    expect(jsonError("SERVICE_UNAVAILABLE", "busy", { "Retry-After": "30" }).headers.get("retry-after")).toBe("30");
    expect(jsonError("RATE_LIMITED", "slow down", { "Retry-After": "60" }).headers.get("retry-after")).toBe("60");
    expect(jsonError("NOT_FOUND", "no such photo").headers.get("retry-after")).toBeNull();
    expect(jsonError("INSUFFICIENT_STORAGE", "disk full").headers.get("retry-after")).toBeNull();
  });
});
