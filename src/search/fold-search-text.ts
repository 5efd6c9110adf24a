// How search text is compared (issue 15): accents and case never matter. The query's words, the
// suggestions and, where the database cannot fold by itself, the indexed text all go through this
// one function, so "Café", "CAFE" and "cafe" are the same word everywhere. Client-safe.

/** NFKD, combining marks removed, lower case: ligatures such as "ﬁ" become their letters. */
export function foldSearchText(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().normalize("NFC");
}
