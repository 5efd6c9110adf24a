import { describe, expect, it } from "vitest";
import { AppError } from "@/src/errors/app-error";
import { isUtf8FormContentType, parseCredentialsForm } from "./credentials-form";

const FORM = "application/x-www-form-urlencoded";

function refusal(contentType: string | null, body: string): unknown {
  try {
    parseCredentialsForm(contentType, body);
  } catch (error) {
    return error;
  }
  return null;
}

describe("isUtf8FormContentType", () => {
  it.each([FORM, `${FORM}; charset=utf-8`, `${FORM};charset=UTF-8`, "Application/X-WWW-Form-Urlencoded", `${FORM}; charset="utf-8"`])(
    "accepts %j",
    (contentType) => expect(isUtf8FormContentType(contentType)).toBe(true),
  );

  it.each([
    null,
    "",
    "application/json",
    "application/json; charset=utf-8",
    `${FORM}; x=application/json`,
    `${FORM}, application/json`,
    `${FORM}; charset=utf-16le`,
    `${FORM}; charset=iso-8859-1`,
    `${FORM}; charset=utf-8; charset=utf-16`,
    `application/json; x=${FORM}`,
    `multipart/form-data; boundary=${FORM}`,
    "text/plain",
    `text/plain; ${FORM}`,
    `${FORM}x`,
  ])("refuses %j", (contentType) => expect(isUtf8FormContentType(contentType)).toBe(false));
});

describe("parseCredentialsForm", () => {
  it("reads each field once, as next-auth does", () => {
    const fields = parseCredentialsForm(FORM, "email=a%40example.test&password=p+w&csrfToken=abc&json=true");
    expect(Object.fromEntries(fields)).toEqual({ email: "a@example.test", password: "p w", csrfToken: "abc", json: "true" });
  });

  it.each([
    "email=decoy&email=victim&password=x",
    "email=victim&password=x&email=decoy",
    "email=a&password=x&password=y",
    "email=a&password=x&csrfToken=1&csrfToken=2",
    "email=a&password=x&callbackUrl=%2F&callbackUrl=%2Fadmin",
    "email=a&password=x&json=true&json=true",
    "email=a&email=&password=x",
    "e%6dail=a&email=b&password=x",
  ])("refuses the repeated field in %j with BAD_REQUEST", (body) => {
    const error = refusal(FORM, body);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("BAD_REQUEST");
  });

  it("refuses a JSON body, whatever it is sent as", () => {
    expect((refusal("application/json", '{"email":"a"}') as AppError).code).toBe("BAD_REQUEST");
    expect((refusal(null, "email=a") as AppError).code).toBe("BAD_REQUEST");
  });

  it("refuses a NUL in any field (SECURITY.md 58)", () => {
    expect(() => parseCredentialsForm("application/x-www-form-urlencoded", "email=a%00b%40example.test&password=x")).toThrow(/NUL/);
    expect(() => parseCredentialsForm("application/x-www-form-urlencoded", "email=a%40example.test&password=x%00")).toThrow(/NUL/);
  });
});
