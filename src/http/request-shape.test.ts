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

  it.each(["/%E0%A4%A", "/%", "/api/%C0"])("answers 400 for the undecodable %s", (pathname) => {
    expect(findRequestShapeError({ method: "GET", pathname, isServerAction: false })).toEqual({ code: "BAD_REQUEST", status: 400 });
  });
});
