import { describe, expect, it } from "vitest";
import { personNameMatches } from "./person-search-term";

describe("personNameMatches", () => {
  it.each([
    ["Anna Berg", "anna", true],
    ["Anna Berg", "BERG", true],
    ["Anna Berg", "anna berg", true],
    ["Åsa Öberg", "asa oberg", true],
    ["Grandma Zelda", '"grandma zelda"', true],
    ["Anna Berg", "ann", false],
    ["Anna Berg", "berg anna", false],
    ["Annabel", "anna", false],
    ["Anna Berg", "!!", false],
  ])("%j named by %j: %s", (name, value, expected) => {
    expect(personNameMatches(name, value)).toBe(expected);
  });
});
