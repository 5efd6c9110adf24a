import { describe, expect, it } from "vitest";
import { findArgumentListError, findServerActionBodyError, SERVER_ACTION_BODY_LIMIT_BYTES } from "./server-action-body";

const bytesOf = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;

async function multipartOf(fields: Record<string, string>): Promise<{ contentType: string; body: ArrayBuffer }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return { contentType: request.headers.get("content-type") ?? "", body: await request.arrayBuffer() };
}

describe("findArgumentListError", () => {
  it.each([['["abc"]'], ["[]"], ['["$$starts with a dollar", 1, true, null, {"a": [1, 2]}]'], ['["$undefined", "$NaN", "$-Infinity", "$-0", "$D2026-01-01T00:00:00.000Z", "$n123"]']])(
    "lets the plain argument list %s through",
    (text) => {
      expect(findArgumentListError(text)).toBeNull();
    },
  );

  it.each([["[[["], [""], ["hello"], ["12345"], ['"x"'], ['{"0": "x", "length": 1}']])("refuses %j as no argument list", (text) => {
    expect(findArgumentListError(text)?.code).toBe("BAD_REQUEST");
  });

  it.each([['["$Q1"]'], ['["$@1"]'], ['["$K1"]'], ['["$h1"]'], ['["$1"]'], ['["$T"]'], ['[{"a": ["$W0"]}]'], ['["$"]']])("refuses the row reference in %s", (text) => {
    expect(findArgumentListError(text)?.code).toBe("BAD_REQUEST");
  });

  it("refuses arguments of more than a million characters and elements together, as React's decoder would (with a 500)", () => {
    expect(findArgumentListError(JSON.stringify(["a", "A".repeat(999_997)]))?.code).toBe("PAYLOAD_TOO_LARGE");
    expect(findArgumentListError(JSON.stringify(["A".repeat(500_000), "A".repeat(500_000)]))?.code).toBe("PAYLOAD_TOO_LARGE");
    expect(findArgumentListError(JSON.stringify([Array.from({ length: 1_000_001 }, () => 0)]))?.code).toBe("PAYLOAD_TOO_LARGE");
    expect(findArgumentListError(JSON.stringify(["a", "A".repeat(900_000)]))).toBeNull();
  });

  it("refuses deep nesting without overflowing its own stack", () => {
    expect(findArgumentListError(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)?.code).toBe("BAD_REQUEST");
    expect(findArgumentListError(`${"[".repeat(60)}${"]".repeat(60)}`)).toBeNull();
  });
});

describe("findServerActionBodyError", () => {
  it("judges a text body as the argument list", async () => {
    expect(await findServerActionBodyError("text/plain;charset=UTF-8", bytesOf('["x"]'))).toBeNull();
    expect((await findServerActionBodyError("text/plain", bytesOf("[[[")))?.code).toBe("BAD_REQUEST");
  });

  it("refuses a body at Next.js's limit with 413", async () => {
    const body = bytesOf(JSON.stringify(["A".repeat(SERVER_ACTION_BODY_LIMIT_BYTES)]));
    expect((await findServerActionBodyError("text/plain", body))?.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("judges a form body by its field 0", async () => {
    const good = await multipartOf({ 0: '["x"]', other: "ignored" });
    expect(await findServerActionBodyError(good.contentType, good.body)).toBeNull();
    const badForms: Array<Record<string, string>> = [{ a: "b" }, { 0: "[[[" }, { 0: '["$K1"]', "1_a": "b" }];
    for (const fields of badForms) {
      const bad = await multipartOf(fields);
      expect((await findServerActionBodyError(bad.contentType, bad.body))?.code).toBe("BAD_REQUEST");
    }
  });

  it("refuses a form body that does not parse", async () => {
    expect((await findServerActionBodyError("multipart/form-data; boundary=x", bytesOf("not a form")))?.code).toBe("BAD_REQUEST");
    expect((await findServerActionBodyError("multipart/form-data", bytesOf("--x\r\n")))?.code).toBe("BAD_REQUEST");
  });
});
