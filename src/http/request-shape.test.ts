import { describe, expect, it } from "vitest";
import { findRequestShapeError } from "./request-shape";

describe("findRequestShapeError", () => {
  it("lets page GETs, HEADs and server action POSTs through", () => {
    expect(findRequestShapeError({ method: "GET", pathname: "/", isServerAction: false })).toBeNull();
    expect(findRequestShapeError({ method: "HEAD", pathname: "/p/1", isServerAction: false })).toBeNull();
    expect(findRequestShapeError({ method: "POST", pathname: "/admin", isServerAction: true })).toBeNull();
  });

  it("leaves API methods to the route handlers", () => {
    expect(findRequestShapeError({ method: "DELETE", pathname: "/api/photos/1", isServerAction: false })).toBeNull();
    expect(findRequestShapeError({ method: "PUT", pathname: "/s/abc/api/picks/1", isServerAction: false })).toBeNull();
  });

  it("treats a share link's pages as pages", () => {
    expect(findRequestShapeError({ method: "PUT", pathname: "/s/abc/p/1", isServerAction: false })).toEqual({ code: "METHOD_NOT_ALLOWED", status: 405 });
    expect(findRequestShapeError({ method: "PUT", pathname: "/s/abc/apiary", isServerAction: false })).toEqual({ code: "METHOD_NOT_ALLOWED", status: 405 });
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"])("answers 405 for %s on a page", (method) => {
    expect(findRequestShapeError({ method, pathname: "/", isServerAction: false })).toEqual({ code: "METHOD_NOT_ALLOWED", status: 405 });
  });

  // SECURITY.md 58: no database stores a NUL; invalid UTF-8 names nothing.
  it.each(["/p/a%00b", "/albums/%C3%28", "/s/key/media/%FF", "/api/photos/%00"])("answers 400 for the path %s", (pathname) => {
    expect(findRequestShapeError({ method: "GET", pathname, isServerAction: false })).toEqual({ code: "BAD_REQUEST", status: 400 });
  });

  it.each(["?q=a%00b", "?album=%C3%28", "?%00=x", "?cursor=%FF"])("answers 400 for the query %s", (search) => {
    expect(findRequestShapeError({ method: "GET", pathname: "/p/1", search, isServerAction: false })).toEqual({ code: "BAD_REQUEST", status: 400 });
  });

  it("lets an ordinary encoded query through", () => {
    expect(findRequestShapeError({ method: "GET", pathname: "/search", search: "?q=caf%C3%A9+bar&x=%2F", isServerAction: false })).toBeNull();
  });

  it.each(["/%E0%A4%A", "/%", "/api/%C0"])("answers 400 for the undecodable %s", (pathname) => {
    expect(findRequestShapeError({ method: "GET", pathname, isServerAction: false })).toEqual({ code: "BAD_REQUEST", status: 400 });
  });
});
