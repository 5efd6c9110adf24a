import { describe, expect, it } from "vitest";
import {
  addSearchTerm,
  describeSearchTerm,
  formatSearchTerm,
  parseSearchQuery,
  removeSearchTerm,
} from "./search-query-parser";
import { MAX_SEARCH_QUERY_LENGTH, MAX_SEARCH_TERMS, MAX_SUBSTRING_LENGTH, type SearchTerm } from "./search-query.types";

function termsOf(text: string): SearchTerm[] {
  const parse = parseSearchQuery(text);
  if (!parse.ok) throw new Error(`expected ${JSON.stringify(text)} to parse: ${parse.error.message}`);
  return parse.query.terms;
}

function errorOf(text: string) {
  const parse = parseSearchQuery(text);
  if (parse.ok) throw new Error(`expected ${JSON.stringify(text)} to fail, got ${JSON.stringify(parse.query)}`);
  return parse.error;
}

const word = (raw: string, words: string[], phrase = words.length > 1, negated = false): SearchTerm => ({
  kind: "text",
  raw,
  negated,
  words,
  phrase,
});

describe("parseSearchQuery: inputs and the terms they make", () => {
  const table: [string, SearchTerm[]][] = [
    ["", []],
    ["   \t\n ", []],
    ["beach", [word("beach", ["beach"])]],
    ["Café CRÈME", [word("Café", ["cafe"]), word("CRÈME", ["creme"])]],
    ["beach 2019", [word("beach", ["beach"]), word("2019", ["2019"])]],
    ['"red door"', [word('"red door"', ["red", "door"], true)]],
    ['"door"', [word('"door"', ["door"], true)]],
    ['-"red door"', [word('-"red door"', ["red", "door"], true, true)]],
    ['"red door', [word('"red door', ["red", "door"], true)]],
    ['""', []],
    ["rock'n'roll", [word("rock'n'roll", ["rock", "n", "roll"], true)]],
    ["10:30", [word("10:30", ["10", "30"], true)]],
    ['"meet at 10:30 pm"', [word('"meet at 10:30 pm"', ["meet", "at", "10", "30", "pm"], true)]],
    ["-beach", [word("-beach", ["beach"], false, true)]],
    ["--x", [word("--x", ["x"], false, true)]],
    ["-", []],
    ["- beach", [word("beach", ["beach"])]],
    ["!!! ... ?", []],
    ["🌊🏖️", []],
    ["beach🌊", [word("beach🌊", ["beach"])]],
    ["NEAR AND OR NOT", [word("NEAR", ["near"]), word("AND", ["and"]), word("OR", ["or"]), word("NOT", ["not"])]],
    ["sea* ^first", [word("sea*", ["sea"]), word("^first", ["first"])]],
    ["NEAR(a b)", [word("NEAR(a", ["near", "a"]), word("b)", ["b"])]],
    ["שלום עולם", [word("שלום", ["שלום"]), word("עולם", ["עולם"])]],
    ["\u202Ebeach\u202C", [word("\u202Ebeach\u202C", ["beach"])]],
    ["e\u0301te\u0301", [word("e\u0301te\u0301", ["ete"])]],
    ["東京タワー", [word("東京タワー", ["東京タワー"])]],
    ["a\u0000b", [word("a", ["a"]), word("b", ["b"])]],
    ["ﬁeld", [word("ﬁeld", ["field"])]],
    ["tag:beach", [{ kind: "tag", raw: "tag:beach", negated: false, value: "beach" }]],
    ["TAG:Beach", [{ kind: "tag", raw: "TAG:Beach", negated: false, value: "Beach" }]],
    ["-tag:beach", [{ kind: "tag", raw: "-tag:beach", negated: true, value: "beach" }]],
    ['tag:"summer holiday"', [{ kind: "tag", raw: 'tag:"summer holiday"', negated: false, value: "summer holiday" }]],
    ["album:summer-2019", [{ kind: "album", raw: "album:summer-2019", negated: false, value: "summer-2019" }]],
    ["camera:canon", [{ kind: "camera", raw: "camera:canon", negated: false, value: "canon" }]],
    ['camera:"eos 40d"', [{ kind: "camera", raw: 'camera:"eos 40d"', negated: false, value: "eos 40d" }]],
    ['camera:"eos 40d', [{ kind: "camera", raw: 'camera:"eos 40d', negated: false, value: "eos 40d" }]],
    ["place:Zürich", [{ kind: "place", raw: "place:Zürich", negated: false, value: "Zürich" }]],
    ['Place:"New York"', [{ kind: "place", raw: 'Place:"New York"', negated: false, value: "New York" }]],
    ["-place:IT", [{ kind: "place", raw: "-place:IT", negated: true, value: "IT" }]],
    // Wildcards of LIKE are plain characters of a name; control characters are white space.
    ["place:R_m%", [{ kind: "place", raw: "place:R_m%", negated: false, value: "R_m%" }]],
    ['place:"New\u0001York"', [{ kind: "place", raw: 'place:"New\u0001York"', negated: false, value: "New York" }]],
    ["lens:ef-50mm", [{ kind: "lens", raw: "lens:ef-50mm", negated: false, value: "ef-50mm" }]],
    ['person:"Anna Berg"', [{ kind: "person", raw: 'person:"Anna Berg"', negated: false, value: "Anna Berg" }]],
    ["-Person:anna", [{ kind: "person", raw: "-Person:anna", negated: true, value: "anna" }]],
    ["tag:a:b", [{ kind: "tag", raw: "tag:a:b", negated: false, value: "a:b" }]],
    ["year:2019", [{ kind: "date", raw: "year:2019", negated: false, from: "2019-01-01", to: "2020-01-01" }]],
    ["year:>=2019", [{ kind: "date", raw: "year:>=2019", negated: false, from: "2019-01-01", to: null }]],
    ["year:>2019", [{ kind: "date", raw: "year:>2019", negated: false, from: "2020-01-01", to: null }]],
    ["year:<2019", [{ kind: "date", raw: "year:<2019", negated: false, from: null, to: "2019-01-01" }]],
    ["year:<=2019", [{ kind: "date", raw: "year:<=2019", negated: false, from: null, to: "2020-01-01" }]],
    ["year:=2019", [{ kind: "date", raw: "year:=2019", negated: false, from: "2019-01-01", to: "2020-01-01" }]],
    ["year:2017..2019", [{ kind: "date", raw: "year:2017..2019", negated: false, from: "2017-01-01", to: "2020-01-01" }]],
    ["-year:2019", [{ kind: "date", raw: "-year:2019", negated: true, from: "2019-01-01", to: "2020-01-01" }]],
    ["year:9999", [{ kind: "date", raw: "year:9999", negated: false, from: "9999-01-01", to: null }]],
    ["date:2024", [{ kind: "date", raw: "date:2024", negated: false, from: "2024-01-01", to: "2025-01-01" }]],
    ["date:2024-05", [{ kind: "date", raw: "date:2024-05", negated: false, from: "2024-05-01", to: "2024-06-01" }]],
    ["date:2024-12", [{ kind: "date", raw: "date:2024-12", negated: false, from: "2024-12-01", to: "2025-01-01" }]],
    ["date:2024-05-01", [{ kind: "date", raw: "date:2024-05-01", negated: false, from: "2024-05-01", to: "2024-05-02" }]],
    ["date:2024-02-29", [{ kind: "date", raw: "date:2024-02-29", negated: false, from: "2024-02-29", to: "2024-03-01" }]],
    ["date:2023-12-31", [{ kind: "date", raw: "date:2023-12-31", negated: false, from: "2023-12-31", to: "2024-01-01" }]],
    ["date:>=2024-05-01", [{ kind: "date", raw: "date:>=2024-05-01", negated: false, from: "2024-05-01", to: null }]],
    ["date:>2024-05-01", [{ kind: "date", raw: "date:>2024-05-01", negated: false, from: "2024-05-02", to: null }]],
    ["date:<2024-05", [{ kind: "date", raw: "date:<2024-05", negated: false, from: null, to: "2024-05-01" }]],
    ["date:<=2024-05", [{ kind: "date", raw: "date:<=2024-05", negated: false, from: null, to: "2024-06-01" }]],
    ["date:2024-05-01..2024-05-03", [{ kind: "date", raw: "date:2024-05-01..2024-05-03", negated: false, from: "2024-05-01", to: "2024-05-04" }]],
    ["date:2024-05..", [{ kind: "date", raw: "date:2024-05..", negated: false, from: "2024-05-01", to: null }]],
    ["date:..2024", [{ kind: "date", raw: "date:..2024", negated: false, from: null, to: "2025-01-01" }]],
    ["iso:1600", [{ kind: "iso", raw: "iso:1600", negated: false, comparison: "=", value: 1600 }]],
    ["iso:>1600", [{ kind: "iso", raw: "iso:>1600", negated: false, comparison: ">", value: 1600 }]],
    ["iso:<=400", [{ kind: "iso", raw: "iso:<=400", negated: false, comparison: "<=", value: 400 }]],
    ["f:<2.8", [{ kind: "aperture", raw: "f:<2.8", negated: false, comparison: "<", value: 2.8 }]],
    ["f:>=8", [{ kind: "aperture", raw: "f:>=8", negated: false, comparison: ">=", value: 8 }]],
    ["f:.95", [{ kind: "aperture", raw: "f:.95", negated: false, comparison: "=", value: 0.95 }]],
    ["f:f/1.4", [{ kind: "aperture", raw: "f:f/1.4", negated: false, comparison: "=", value: 1.4 }]],
    ["*ton*", [{ kind: "substring", raw: "*ton*", negated: false, value: "ton" }]],
    ["*TÔN*", [{ kind: "substring", raw: "*TÔN*", negated: false, value: "ton" }]],
    ["-*ton*", [{ kind: "substring", raw: "-*ton*", negated: true, value: "ton" }]],
    ["**ton***", [{ kind: "substring", raw: "**ton***", negated: false, value: "ton" }]],
    ["*ﬁel*", [{ kind: "substring", raw: "*ﬁel*", negated: false, value: "fiel" }]],
    ["*東京タ*", [{ kind: "substring", raw: "*東京タ*", negated: false, value: "東京タ" }]],
    ["*ton* tag:beach", [{ kind: "substring", raw: "*ton*", negated: false, value: "ton" }, { kind: "tag", raw: "tag:beach", negated: false, value: "beach" }]],
    ["*ton", [word("*ton", ["ton"])]],
    ["ton*", [word("ton*", ["ton"])]],
    ['"*ton*"', [word('"*ton*"', ["ton"], true)]],
    ["** *** -**", []],
    // White space ends a token: these are two words, as without the stars.
    ["*on b*", [word("*on", ["on"]), word("b*", ["b"])]],
    ["orientation:portrait", [{ kind: "orientation", raw: "orientation:portrait", negated: false, value: "portrait" }]],
    ["-orientation:Square", [{ kind: "orientation", raw: "-orientation:Square", negated: true, value: "square" }]],
    ["rating:5", [{ kind: "rating", raw: "rating:5", negated: false, comparison: "=", value: 5 }]],
    ["rating:>=4", [{ kind: "rating", raw: "rating:>=4", negated: false, comparison: ">=", value: 4 }]],
    ["-Rating:0", [{ kind: "rating", raw: "-Rating:0", negated: true, comparison: "=", value: 0 }]],
    ["label:red", [{ kind: "label", raw: "label:red", negated: false, value: "red" }]],
    ["label:Purple", [{ kind: "label", raw: "label:Purple", negated: false, value: "purple" }]],
    ["-label:none", [{ kind: "label", raw: "-label:none", negated: true, value: "none" }]],
  ];

  it.each(table)("%j", (input, expected) => {
    expect(termsOf(input)).toEqual(expected);
  });

  it("reads SQL as plain words", () => {
    expect(termsOf("'; DROP TABLE photos; --").map((term) => term.kind === "text" && term.words)).toEqual([
      ["drop"],
      ["table"],
      ["photos"],
    ]);
    expect(termsOf("1' OR '1'='1").flatMap((term) => (term.kind === "text" ? term.words : []))).toEqual([
      "1",
      "or",
      "1",
      "1",
    ]);
  });

  it("combines tokens in order", () => {
    expect(termsOf('beach tag:sea -year:2019 "red door" camera:canon').map((term) => term.kind)).toEqual([
      "text",
      "tag",
      "date",
      "text",
      "camera",
    ]);
  });
});

describe("parseSearchQuery: errors name the token and where it starts", () => {
  const table: [string, string, number, string][] = [
    ["year:20x9", "year:20x9", 0, "year:20x9 is not a year (use year:2019)"],
    ["beach year:20x9", "year:20x9", 6, "year:20x9 is not a year"],
    ["year:19", "year:19", 0, "is not a year"],
    ["year:2019-05", "year:2019-05", 0, "is not a year"],
    ["year:>", "year:>", 0, "is not a year"],
    ["year:2020..2019", "year:2020..2019", 0, "ends before it starts"],
    ["year:..", "year:..", 0, "is not a year"],
    ["year:>9999", "year:>9999", 0, "leaves no days after it"],
    ["date:2024-13", "date:2024-13", 0, "is not a date (use date:>=2024-05-01)"],
    ["date:2023-02-29", "date:2023-02-29", 0, "is not a date"],
    ["date:2024-5-1", "date:2024-5-1", 0, "is not a date"],
    ["date:yesterday", "date:yesterday", 0, "is not a date"],
    ["iso:fast", "iso:fast", 0, "iso:fast is not an ISO speed (use iso:>1600)"],
    ["iso:-100", "iso:-100", 0, "is not an ISO speed"],
    ["iso:0", "iso:0", 0, "is not an ISO speed"],
    ["iso:1e9", "iso:1e9", 0, "is not an ISO speed"],
    ["iso:100..400", "iso:100..400", 0, "is not an ISO speed"],
    ["f:wide", "f:wide", 0, "f:wide is not an aperture (use f:<2.8)"],
    ["f:0", "f:0", 0, "is not an aperture"],
    ["orientation:diagonal", "orientation:diagonal", 0, "is not an orientation: portrait, landscape or square"],
    ["rating:6", "rating:6", 0, "rating:6 is not a rating: 0 (none) to 5 stars (use rating:>=4)"],
    ["rating:>=4.5", "rating:>=4.5", 0, "is not a rating"],
    ["rating:-1", "rating:-1", 0, "is not a rating"],
    ["label:orange", "label:orange", 0, "label:orange is not a label: red, yellow, green, blue, purple, none (use label:red)"],
    ["tag:", "tag:", 0, "tag: needs a value (use tag:beach)"],
    ['tag:""', 'tag:""', 0, "needs a value"],
    ["-camera:", "-camera:", 0, "-camera: needs a value"],
    ['place:"\u0007"', 'place:"\u0007"', 0, 'place:"\u0007" needs a value (use place:"New York")'],
    ["person:", "person:", 0, 'person: needs a value (use person:"Anna Berg")'],
    ["  foo:bar", "foo:bar", 2, "foo:bar names no field: foo: is not one of tag:, album:, camera:"],
    ["http://example.com", "http://example.com", 0, "names no field"],
    ["-Colour:red", "-Colour:red", 0, "Colour: is not one of"],
    ["café:noir", "café:noir", 0, "names no field"],
    ["*to*", "*to*", 0, "*to* is too short: a substring needs at least 3 letters or digits (use *ton* to find Boston or cartons)"],
    ["beach -*é*", "-*é*", 6, "is too short"],
    ['*"on b"*', '*"on b"*', 0, "holds more than letters and digits"],
    ["*100%*", "*100%*", 0, "holds more than letters and digits"],
    ["*a_b*", "*a_b*", 0, "holds more than letters and digits"],
    ['*a"b*', '*a"b*', 0, "holds more than letters and digits"],
    ["*a*b*", "*a*b*", 0, "holds more than letters and digits"],
    ["*NEAR(a*", "*NEAR(a*", 0, "holds more than letters and digits"],
    [`*${"a".repeat(MAX_SUBSTRING_LENGTH + 1)}*`, `*${"a".repeat(MAX_SUBSTRING_LENGTH + 1)}*`, 0, `is too long: a substring holds at most ${MAX_SUBSTRING_LENGTH}`],
  ];

  it.each(table)("%j", (input, token, position, message) => {
    const error = errorOf(input);
    expect(error.token).toBe(token);
    expect(error.position).toBe(position);
    expect(error.message).toContain(message);
  });

  it("refuses text over the length limit instead of cutting it", () => {
    const error = errorOf("a".repeat(MAX_SEARCH_QUERY_LENGTH + 1));
    expect(error.message).toContain(`at most ${MAX_SEARCH_QUERY_LENGTH}`);
    expect(termsOf("a".repeat(MAX_SEARCH_QUERY_LENGTH))).toHaveLength(1);
    const tenKilobytes = errorOf("NEAR(".repeat(2048));
    expect(tenKilobytes.message).toContain("10240 characters");
  });

  it("refuses more terms than the limit, naming the first one too many", () => {
    const words = Array.from({ length: MAX_SEARCH_TERMS + 1 }, (_, index) => `w${index}`);
    expect(termsOf(words.slice(0, MAX_SEARCH_TERMS).join(" "))).toHaveLength(MAX_SEARCH_TERMS);
    const error = errorOf(words.join(" "));
    expect(error.token).toBe(`w${MAX_SEARCH_TERMS}`);
    expect(error.message).toContain(`at most ${MAX_SEARCH_TERMS} terms`);
    // Dropped tokens (punctuation) do not count.
    expect(termsOf([...words.slice(0, MAX_SEARCH_TERMS), "!!!", "-"].join(" "))).toHaveLength(MAX_SEARCH_TERMS);
  });

  it("never throws, whatever the text", () => {
    const samples = ['"', '""""', "-\"", ":", "::", "a:", "\u0000\u0001", "\uD800", "tag:\u0000", "year:\uD83D\uDE00", "\"tag:x", "-\"-\"-"];
    for (const sample of samples) expect(() => parseSearchQuery(sample)).not.toThrow();
  });
});

describe("formatSearchTerm", () => {
  it.each([
    "beach",
    "-beach",
    '"red door"',
    "tag:beach",
    '-camera:"eos 40d"',
    'place:"New York"',
    "-place:IT",
    "year:2019",
    "date:>=2024-05-01",
    "date:2024-05",
    "iso:>1600",
    "f:<2.8",
    "orientation:portrait",
    "rating:>=4",
    "-label:red",
    "*ton*",
    "-*Café*",
    'person:"Anna Berg"',
    "-person:anna",
  ])("%j parses back to the same term", (input) => {
    const [term] = termsOf(input);
    const [again] = termsOf(formatSearchTerm(term));
    expect({ ...again, raw: "" }).toEqual({ ...term, raw: "" });
  });
});

describe("describeSearchTerm", () => {
  it("says what a chip means", () => {
    const [year, taken, iso, phrase] = termsOf('year:2019 date:2024-05-01 iso:>1600 "red door"');
    expect(describeSearchTerm(year)).toEqual({ field: "Taken", value: "2019" });
    expect(describeSearchTerm(taken)).toEqual({ field: "Taken", value: "2024-05-01" });
    expect(describeSearchTerm(iso)).toEqual({ field: "ISO", value: "> 1600" });
    expect(describeSearchTerm(phrase)).toEqual({ field: "Phrase", value: "“red door”" });
    const [rated, unrated, label] = termsOf("rating:>=4 rating:0 label:red");
    expect(describeSearchTerm(rated)).toEqual({ field: "Rating", value: "≥ 4 ★" });
    expect(describeSearchTerm(unrated)).toEqual({ field: "Rating", value: "none" });
    expect(describeSearchTerm(label)).toEqual({ field: "Label", value: "red" });
    const [contains] = termsOf("-*Tön*");
    expect(describeSearchTerm(contains)).toEqual({ field: "Contains", value: "ton" });
  });
});

describe("removeSearchTerm and addSearchTerm", () => {
  it("removes exactly one token's text", () => {
    expect(removeSearchTerm("beach tag:sea year:2019", "tag:sea")).toBe("beach year:2019");
    expect(removeSearchTerm("beach beach", "beach")).toBe("beach");
    expect(removeSearchTerm('a camera:"eos 40d" b', 'camera:"eos 40d"')).toBe("a b");
    expect(removeSearchTerm("seashore sea", "sea")).toBe("seashore");
    expect(removeSearchTerm("-beach", "-beach")).toBe("");
    expect(removeSearchTerm("beach", "missing")).toBe("beach");
  });

  it("every chip's raw text comes out again", () => {
    const text = 'beach -tag:sea "red door" year:>=2019 camera:"eos 40d" *ton* -*Café*';
    for (const term of termsOf(text)) {
      const rest = removeSearchTerm(text, term.raw);
      expect(termsOf(rest).map((t) => t.raw)).toEqual(termsOf(text).map((t) => t.raw).filter((raw) => raw !== term.raw));
    }
  });

  it("adds a token once", () => {
    expect(addSearchTerm("", "year:2019")).toBe("year:2019");
    expect(addSearchTerm(" beach ", "year:2019")).toBe("beach year:2019");
    expect(addSearchTerm("beach year:2019", "year:2019")).toBe("beach year:2019");
  });
});
