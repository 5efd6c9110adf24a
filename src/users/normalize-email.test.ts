import { describe, expect, it } from "vitest";
import { normalizeEmail } from "./normalize-email";
import { emailSchema } from "./users.schemas";

const NFC = "josé@example.test".normalize("NFC");
const NFD = NFC.normalize("NFD");

describe("normalizeEmail", () => {
  it.each([
    [NFC, NFC],
    [NFD, NFC],
    [NFD.toUpperCase(), NFC],
    [`  ${NFC.toUpperCase()}\t`, NFC],
    ["Ada@Example.TEST", "ada@example.test"],
  ])("turns %j into %j", (input, expected) => {
    expect(normalizeEmail(input)).toBe(expected);
  });

  it("is what the schema stores, so a typed address always finds its account", () => {
    for (const spelling of [NFC, NFD, NFD.toUpperCase(), ` ${NFC} `]) {
      expect(emailSchema.parse(spelling)).toBe(normalizeEmail(spelling));
    }
  });

  it("still refuses what is not an e-mail address", () => {
    for (const input of ["", "no-at-sign", "a b@example.test", "<a>@example.test", "a@b", "é@", `${"a".repeat(250)}@example.test`]) {
      expect(emailSchema.safeParse(input).success).toBe(false);
    }
  });
});
