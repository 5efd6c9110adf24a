import { describe, expect, it } from "vitest";
import { CLIENT_EXCEPTION_TITLE, getErrorTitle } from "./error-titles";

describe("error titles from the original request", () => {
  it.each([
    [400, "Bad Request"],
    [404, "This page could not be found"],
    [405, "Method Not Allowed"],
    [500, "Internal Server Error"],
    [403, "An unexpected error has occurred"],
    [418, "An unexpected error has occurred"],
  ])("%i: %s", (status, title) => {
    expect(getErrorTitle(status)).toBe(title);
  });

  it("names a client-side exception", () => {
    expect(CLIENT_EXCEPTION_TITLE).toBe("Application error: a client-side exception has occurred");
  });
});
