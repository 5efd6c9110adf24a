// The search language on both databases (issue 15): a table of queries and the photos each must
// find, asked of the service on a fresh database of the run's kind (the same table, the same
// expected ids on SQLite and PostgreSQL, so the two answer alike); keyset paging with ties; facets
// and suggestions; then over HTTP: hostile input never a 500, and the privacy world (SECURITY.md 43)
// for search, facets, counts and suggestions.
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ANONYMOUS_VIEWER, toViewer, type Viewer } from "@/src/access/viewer";
import type { Database } from "@/src/db/database";
import { announcePhotosChanged } from "@/src/photos/photo-changes";
import { backfillPlaces, type PlaceBackfillProgress } from "@/src/photos/place-backfill.job";
import { facetSearchForViewer, searchPhotosForViewer, suggestSearchForViewer } from "@/src/search/search.service";
import { createPrivacyWorld, expectNoSecrets, type PrivacyWorld } from "./helpers/privacy-world";
import { type SearchLibrary, seedSearchLibrary } from "./helpers/search-library";
import { seedPerson, setMembersSeePeople } from "./helpers/search-people";
import { openFreshDatabase } from "./helpers/test-database";
import { TestClient } from "./helpers/test-client";

const databaseKind = inject("databaseKind");

let db: Kysely<Database>;
let remove: () => Promise<void>;
let library: SearchLibrary;
const FILLERS = 23;

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(databaseKind));
  library = await seedSearchLibrary(db, "s", FILLERS);
  // People (issue 32), all the editor's: Anna Berg in a public, a members-only, a private and a
  // trashed photo; Åsa Öberg hidden, in p2; an unnamed person in p3.
  await seedPerson(db, { id: "s-anna", ownerId: library.editor.id, name: "Anna Berg" }, [library.ids.p1, library.ids.p5, library.ids.p6, library.ids.p7]);
  await seedPerson(db, { id: "s-asa", ownerId: library.editor.id, name: "Åsa Öberg", isHidden: true }, [library.ids.p2]);
  await seedPerson(db, { id: "s-unnamed", ownerId: library.editor.id, name: null }, [library.ids.p3]);
  announcePhotosChanged();
});
afterAll(() => remove());

function viewerOf(who: "visitor" | "member" | "editor" | "admin"): Viewer {
  return who === "visitor" ? ANONYMOUS_VIEWER : toViewer(library[who]);
}

/** Every page of the search, as short names (p1…, f0…). */
async function findAll(q: string, who: "visitor" | "member" | "editor" | "admin" = "visitor", limit = 100): Promise<string[]> {
  const names = new Map(Object.entries(library.ids).map(([name, id]) => [id, name]));
  const found: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await searchPhotosForViewer(db, viewerOf(who), { q, cursor, limit });
    found.push(...page.photos.map((photo) => names.get(photo.id) ?? photo.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return found;
}

/** What a query finds among p1..p8 (fillers left out unless asked for). */
async function findNamed(q: string, who: "visitor" | "member" | "editor" | "admin" = "visitor"): Promise<string[]> {
  return (await findAll(q, who)).filter((name) => /^p\d$/.test(name));
}

// Gallery order of the library: p3 (2024-05-02), p4 (2024-04-30), p6 (2021), p5 (2020), p2 (2019-08), p1 (2019-06), p8 (2018).
const TABLE: Array<[string, string[], ("visitor" | "member" | "editor" | "admin")?]> = [
  // Free words: accents and case ignored, prefixes match, every field of the text.
  ["beach", ["p2", "p1"]],
  ["BEACH", ["p2", "p1"]],
  ["bea", ["p2", "p1"]],
  ["cafe", ["p3", "p1"]],
  ["CAFÉ", ["p3", "p1"]],
  ["zurich", ["p4"]],
  ["zür", ["p4"]],
  ["tram", ["p4"]],
  ["sunny", ["p1"]],
  ["summer", ["p1"]],
  ["ete", ["p8"]],
  ["رمل", ["p8"]],
  ["canon", ["p3", "p1"]],
  ["nikon", ["p2"]],
  ["85mm", ["p1"]],
  // Public album titles are searchable; a private album's never (the index cannot know who asks).
  ["alps", ["p3"]],
  ["hidden", []],
  ["gems", [], "editor"],
  // Phrases: the words in a row.
  ['"beach volleyball"', ["p2"]],
  ['"volleyball beach"', []],
  ['"mountain hut"', ["p3"]],
  // Exclusion.
  ["beach -volleyball", ["p1"]],
  ["-beach", ["p3", "p4", "p8"]],
  ["cafe -tag:beach", ["p3"]],
  // Fields.
  ["tag:beach", ["p2", "p1"]],
  ["tag:Beach", ["p2", "p1"]],
  ["tag:summer", ["p1"]],
  ["tag:nosuchtag", []],
  ["-tag:beach", ["p3", "p4", "p8"]],
  ["album:alps-trip", ["p3"]],
  ["album:hidden-gems", []],
  ["album:hidden-gems", ["p1"], "editor"],
  ["-album:alps-trip", ["p4", "p2", "p1", "p8"]],
  ["camera:canon", ["p3", "p1"]],
  ["camera:eos-40d", ["p1"]],
  ["camera:eos", ["p3", "p1"]],
  ["camera:40", []],
  ["camera:nikon-d70s", ["p2"]],
  ['camera:"Canon EOS 5D"', ["p3"]],
  ["-camera:canon", ["p4", "p2", "p8"]],
  ["lens:ef-s", ["p1"]],
  ["lens:iphone", ["p4"]],
  ["year:2019", ["p2", "p1"]],
  ["year:2024", ["p3", "p4"]],
  ["date:>=2024-05-01", ["p3"]],
  ["date:2024-04", ["p4"]],
  ["date:<2019", ["p8"]],
  ["iso:>1600", ["p2"]],
  ["iso:>=1600", ["p3", "p2"]],
  ["iso:<200", ["p4"]],
  ["f:<2.8", ["p3", "p4"]],
  ["f:2.8", ["p2"]],
  ["-iso:>1600", ["p3", "p4", "p1", "p8"]],
  ["orientation:portrait", ["p2"]],
  ["orientation:landscape", ["p4", "p1"]],
  ["orientation:square", ["p3"]],
  // Combinations.
  ["beach year:2019 camera:canon", ["p1"]],
  ["cafe orientation:square", ["p3"]],
  ["tag:beach f:>2", ["p2", "p1"]],
  // FTS operators are plain words.
  ["near", ["p3", "p8"]],
  ['"near the and or"', ["p8"]],
  ["AND", ["p8"]],
  // Substrings (*…*): letters anywhere inside a word, accents and case ignored, every field of the text.
  ["*olley*", ["p2"]],
  ["*ACH*", ["p2", "p1"]],
  ["*urich*", ["p4"]],
  ["*ÜRI*", ["p4"]],
  ["*afé*", ["p3", "p1"]],
  ["*ete*", ["p8"]],
  ["*near*", ["p3", "p8"]],
  ["*anon*", ["p3", "p1"]],
  ["*85m*", ["p1"]],
  ["*lps*", ["p3"]],
  ["*idden*", []],
  ["*idden*", [], "editor"],
  ["*zzq*", []],
  // Inside one word only: the space between "Mountain" and "hut" is not skipped.
  ["*ainhu*", []],
  // With words, fields and exclusions.
  ["beach *olley*", ["p2"]],
  ["*afe* tag:beach", ["p1"]],
  ["*afe* -tag:beach", ["p3"]],
  ["-*afe*", ["p4", "p2", "p8"]],
  ["*each* -*olley*", ["p1"]],
  ["*ountai* year:2024", ["p3"]],
  ["*each*", ["p6", "p5", "p2", "p1"], "editor"],
  ["*each*", ["p5", "p2", "p1"], "member"],
  // Who is asking: members see members-only photos; the owner their private ones; nobody the trash.
  ["beach", ["p5", "p2", "p1"], "member"],
  ["beach", ["p6", "p5", "p2", "p1"], "editor"],
  ["beach", ["p6", "p5", "p2", "p1"], "admin"],
  ["trashed", [], "editor"],
  ["tag:beach", ["p5", "p2", "p1"], "member"],
  // The owner's ratings and labels (metadata policy): the owner and admins find by them; anyone
  // else finds nothing by them, and excluding one keeps everything (p1 is public, rated 5, red).
  ["rating:5", ["p6", "p5", "p1"], "editor"],
  ["rating:5", ["p6", "p5", "p1"], "admin"],
  ["rating:5", []],
  ["rating:5", [], "member"],
  ["rating:>=4", ["p6", "p5", "p2", "p1"], "editor"],
  ["rating:<3", ["p3", "p4", "p8"], "editor"],
  ["rating:0", ["p4", "p8"], "editor"],
  ["-rating:0", ["p3", "p6", "p5", "p2", "p1"], "editor"],
  ["label:red", ["p4", "p6", "p1"], "editor"],
  ["label:red", []],
  ["label:red", [], "member"],
  ["-label:red", ["p3", "p4", "p2", "p1", "p8"]],
  ["-label:red", ["p3", "p5", "p2", "p8"], "editor"],
  ["label:none", ["p5", "p2", "p8"], "editor"],
  ["label:none", []],
  ["beach label:red", ["p6", "p1"], "editor"],
  ["beach rating:5", [], "member"],
  ["*each* rating:>=4 -label:red", ["p5", "p2"], "editor"],
  // Places (issue 31): a town, region or country by its whole name, accents and case ignored, or a
  // country by its code. Only where the viewer may learn the place: p2 (New York) hides its location,
  // so nobody but its owner and admins finds it by place, and excluding the place keeps it.
  ["place:Rome", ["p1"]],
  ["place:ROME", ["p1"]],
  ["place:Rome", ["p5", "p1"], "member"],
  ["place:Rom", []],
  ["place:Lazio", ["p1"]],
  ["place:Italy", ["p1"]],
  ["place:IT", ["p1"]],
  ["place:it", ["p1"]],
  ["place:zurich", ["p4"]],
  ["place:ZÜRICH", ["p4"]],
  ["place:Switzerland", ["p3", "p4"]],
  ["place:CH", ["p3", "p4"]],
  ["place:valais", ["p3"]],
  ['place:"New York"', []],
  ['place:"new  york"', [], "member"],
  ['place:"New York"', ["p2"], "editor"],
  ['place:"new york"', ["p2"], "admin"],
  ["place:US", []],
  ["place:us", ["p2"], "editor"],
  ['-place:"New York"', ["p3", "p4", "p2", "p1", "p8"]],
  ["-place:Rome", ["p3", "p4", "p2", "p8"]],
  ["-place:Switzerland -place:Italy", ["p2", "p8"]],
  ["place:Atlantis", []],
  // LIKE's wildcards are plain characters: R_me is not Rome, % is no name.
  ["place:R_me", []],
  ["place:%", []],
  ["place:_", []],
  ["place:Rome beach", ["p1"]],
  ["place:switzerland year:2024 -*tram*", ["p3"]],
  ["place:Rome tag:beach", ["p5", "p1"], "member"],
  // People (issue 32): the owner finds their named people, hidden ones too, by the name or a run of
  // its words; nobody else does while "members see people" is off (its own test turns it on), and
  // excluding a person tells a visitor nothing.
  ["person:anna", ["p6", "p5", "p1"], "editor"],
  ['person:"Anna Berg"', ["p6", "p5", "p1"], "editor"],
  ["person:BERG", ["p6", "p5", "p1"], "editor"],
  ["person:ann", [], "editor"],
  ['person:"berg anna"', [], "editor"],
  ["person:asa", ["p2"], "editor"],
  ["person:anna beach", ["p6", "p5", "p1"], "editor"],
  ["person:anna -tag:beach", ["p6"], "editor"],
  ["-person:anna", ["p3", "p4", "p2", "p8"], "editor"],
  ["person:anna", [], "admin"],
  ["person:anna", [], "member"],
  ["person:anna", []],
  ["-person:anna", ["p3", "p4", "p2", "p1", "p8"]],
];

describe(`the search language on ${databaseKind}`, () => {
  it.each(TABLE)("%s finds %j (%s)", async (q, expected, who = "visitor") => {
    expect(await findNamed(q, who)).toEqual(expected);
  });

  it("answers the whole gallery for an empty query, in gallery order, and pages by keyset through ties without gaps or repeats", async () => {
    const all = await findAll("", "visitor", 100);
    expect(all.filter((name) => /^p\d$/.test(name))).toEqual(["p3", "p4", "p2", "p1", "p8"]);
    expect(all.filter((name) => name.startsWith("f"))).toHaveLength(FILLERS);
    for (const [q, who] of [["", "visitor"], ["filler", "visitor"], ["filler", "editor"], ["year:2015", "member"]] as const) {
      const whole = await findAll(q, who, 100);
      const paged = await findAll(q, who, 4);
      expect(paged, `${q} as ${who}`).toEqual(whole);
      expect(new Set(paged).size).toBe(paged.length);
    }
    expect(await findAll("filler", "visitor", 4)).toHaveLength(FILLERS);
  });

  it("refuses a query it cannot read with a 400 that names the token", async () => {
    for (const q of ["colour:red", "year:abc", "iso:>lots", "orientation:round", "x".repeat(501), "*ab*", "*a%b*", "*a_b*", '*a"b*', `*${"a".repeat(51)}*`]) {
      const error = await searchPhotosForViewer(db, ANONYMOUS_VIEWER, { q, limit: 10 }).then(
        () => null,
        (caught: unknown) => caught as { code?: string; message?: string },
      );
      expect(error?.code, q.slice(0, 20)).toBe("BAD_REQUEST");
      if (q.length < 100) expect(error?.message).toContain(q.split(":")[0]);
    }
  });

  it("counts facets among what the query finds for this viewer, biggest first, with tokens that narrow to each value", async () => {
    const beach = await facetSearchForViewer(db, ANONYMOUS_VIEWER, { q: "beach" });
    expect(beach.tags).toEqual([
      { label: "Beach", count: 2, token: "tag:beach" },
      { label: "Summer", count: 1, token: "tag:summer" },
    ]);
    expect(beach.years).toEqual([{ label: "2019", count: 2, token: "year:2019" }]);
    expect(beach.cameras.map((facet) => [facet.label, facet.count, facet.token])).toEqual([
      ["Canon EOS 40D", 1, "camera:canon-eos-40d"],
      ["Nikon D70s", 1, "camera:nikon-d70s"],
    ]);
    expect(beach.lenses.map((facet) => facet.token)).toEqual(["lens:ef-s-17-85mm-f-4-5-6-is-usm"]);
    // A member also counts the members-only photo.
    expect((await facetSearchForViewer(db, toViewer(library.member), { q: "beach" })).tags[0]).toEqual({ label: "Beach", count: 3, token: "tag:beach" });
    // Every facet's token finds exactly its count.
    for (const facet of [...beach.cameras, ...beach.years, ...beach.tags, ...beach.lenses]) {
      expect(await findAll(`beach ${facet.token}`), facet.token).toHaveLength(facet.count);
    }
    // The whole gallery: fillers have no camera; years count them.
    const whole = await facetSearchForViewer(db, ANONYMOUS_VIEWER, { q: "" });
    expect(whole.years.find((facet) => facet.label === "2015")?.count).toBe(FILLERS);
    expect(whole.tags.find((facet) => facet.token === "tag:beach")?.count).toBe(2);
    // A substring's facets are counted like a word's: *each* finds what beach finds here.
    expect(await facetSearchForViewer(db, ANONYMOUS_VIEWER, { q: "*each*" })).toEqual(beach);
    for (const facet of beach.tags) expect(await findAll(`*each* ${facet.token}`), facet.token).toHaveLength(facet.count);
  });

  it("person: facets and suggestions: the owner's people; with members see people on, others' named ones in the photos they may list", async () => {
    const suggest = (q: string, who: "visitor" | "member" | "editor" | "admin") => suggestSearchForViewer(db, viewerOf(who), { q, limit: 10 });
    const peopleFacets = async (q: string, who: "visitor" | "member" | "editor" | "admin") => (await facetSearchForViewer(db, viewerOf(who), { q })).people;
    // Hidden people are found by name but never offered.
    expect(await peopleFacets("beach", "editor")).toEqual([{ label: "Anna Berg", count: 3, token: 'person:"Anna Berg"' }]);
    expect(await suggest("person:as", "editor")).toEqual([]);
    expect(await findNamed('beach person:"Anna Berg"', "editor")).toHaveLength(3);
    expect(await suggest("person:an", "editor")).toEqual([{ kind: "person", label: "Anna Berg", token: 'person:"Anna Berg"' }]);
    expect(await suggest("-ber", "editor")).toContainEqual({ kind: "person", label: "Anna Berg", token: '-person:"Anna Berg"' });
    for (const who of ["visitor", "member", "admin"] as const) {
      expect(await peopleFacets("beach", who), who).toEqual([]);
      expect(await peopleFacets("", who), who).toEqual([]);
      expect(await suggest("person:an", who), who).toEqual([]);
    }
    await setMembersSeePeople(db, true);
    try {
      // Members: Anna in the public and the members-only photo, never the private one; the hidden person never.
      expect(await findNamed("person:anna", "member")).toEqual(["p5", "p1"]);
      expect(await findNamed("person:asa", "member")).toEqual([]);
      expect(await findNamed("-person:anna", "member")).toEqual(["p3", "p4", "p2", "p8"]);
      expect(await peopleFacets("beach", "member")).toEqual([{ label: "Anna Berg", count: 2, token: 'person:"Anna Berg"' }]);
      expect(await peopleFacets("", "member")).toEqual([{ label: "Anna Berg", count: 2, token: 'person:"Anna Berg"' }]);
      expect(await suggest("person:", "member")).toEqual([]);
      expect(await suggest("person:an", "member")).toEqual([{ kind: "person", label: "Anna Berg", token: 'person:"Anna Berg"' }]);
      expect(await suggest("person:as", "member")).toEqual([]);
      // An admin lists every photo: Anna in all three outside the trash.
      expect(await findNamed("person:anna", "admin")).toEqual(["p6", "p5", "p1"]);
      // Visitors still see nobody.
      expect(await findNamed("person:anna")).toEqual([]);
      expect(await peopleFacets("", "visitor")).toEqual([]);
      expect(await suggest("an", "visitor")).not.toContainEqual(expect.objectContaining({ kind: "person" }));
    } finally {
      await setMembersSeePeople(db, false);
    }
  });

  it("answers a pathological substring over long text, and many substrings at once, exactly", async () => {
    // One photo whose caption is a long run of one letter: the worst case for matching a run of it.
    const filler = library.ids.f0;
    await db.updateTable("photos").set({ caption: "a".repeat(2000) }).where("id", "=", filler).execute();
    try {
      const started = Date.now();
      expect(await findAll(`*${"a".repeat(50)}*`)).toEqual(["f0"]);
      expect(await findAll(`*${"a".repeat(49)}b*`)).toEqual([]);
      expect(await findAll(Array.from({ length: 9 }, () => `*${"a".repeat(50)}*`).join(" "))).toEqual(["f0"]);
      expect(await findAll(Array.from({ length: 20 }, (_, index) => `*aa${index}*`).join(" "))).toEqual([]);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await db.updateTable("photos").set({ caption: "" }).where("id", "=", filler).execute();
    }
  });

  it("suggests tags, albums, cameras, lenses and words the viewer may list, for the last word", async () => {
    const suggest = (q: string, who: "visitor" | "member" | "editor" = "visitor") => suggestSearchForViewer(db, viewerOf(who), { q, limit: 10 });
    expect(await suggest("bea")).toEqual([
      { kind: "tag", label: "Beach", token: "tag:beach" },
      { kind: "word", label: "beach", token: "beach" },
    ]);
    expect(await suggest("year:2019 -vol")).toEqual([{ kind: "word", label: "volleyball", token: "-volleyball" }]);
    expect((await suggest("can")).map((each) => each.token)).toEqual(["camera:canon-eos-40d", "camera:canon-eos-5d-mark-ii", "canon"]);
    expect(await suggest("camera:eos")).toEqual([
      { kind: "camera", label: "Canon EOS 40D", token: "camera:canon-eos-40d" },
      { kind: "camera", label: "Canon EOS 5D Mark II", token: "camera:canon-eos-5d-mark-ii" },
    ]);
    expect(await suggest("album:al")).toEqual([{ kind: "album", label: "Alps Trip", token: "album:alps-trip" }]);
    expect((await suggest("zu")).map((each) => each.label)).toEqual(["zurich"]);
    // Never a private album, a word or tag only found on photos the viewer may not list.
    expect(await suggest("hid")).toEqual([]);
    expect(await suggest("secr")).toEqual([]);
    expect(await suggest("secr", "member")).toEqual([{ kind: "word", label: "secret", token: "secret" }]);
    expect(await suggest("priv")).toEqual([]);
    expect((await suggest("priv", "editor")).map((each) => each.token)).toEqual(["private"]);
    expect((await suggest("hid", "editor")).map((each) => each.token)).toEqual(["album:hidden-gems"]);
    expect(await suggest("beach ")).toEqual([]);
    // A substring being typed is left alone (a word by prefix would replace it).
    expect(await suggest("*vol")).toEqual([]);
    expect(await suggest("beach -*volley*")).toEqual([]);
  });

  it("counts and suggests places only where the viewer may learn them (issue 31)", async () => {
    const suggest = (q: string, who: "visitor" | "member" | "editor" = "visitor") => suggestSearchForViewer(db, viewerOf(who), { q, limit: 10 });
    // The town, then the whole names of places by prefix, once each; a hidden place for nobody but its owner.
    expect(await suggest("place:ro")).toEqual([{ kind: "place", label: "Rome", token: "place:Rome" }]);
    expect(await suggest("-place:SWI")).toEqual([{ kind: "place", label: "Switzerland", token: "-place:Switzerland" }]);
    expect(await suggest('place:"new')).toEqual([]);
    expect(await suggest("place:new", "member")).toEqual([]);
    expect(await suggest("place:new", "editor")).toEqual([{ kind: "place", label: "New York", token: 'place:"New York"' }]);
    expect((await suggest("place:uni")).map((each) => each.token)).toEqual([]);
    expect((await suggest("place:uni", "editor")).map((each) => each.token)).toEqual(['place:"United States"']);
    // A bare word suggests words, never places (place: does).
    expect((await suggest("zu")).map((each) => each.kind)).toEqual(["word"]);

    const whole = await facetSearchForViewer(db, ANONYMOUS_VIEWER, { q: "" });
    expect(whole.places).toEqual([
      { label: "Rome, Italy", count: 1, token: "place:Rome" },
      { label: "Zürich, Switzerland", count: 1, token: "place:Zürich" },
    ]);
    // The photo with the hidden place is found by its word, but its place is in no facet.
    expect(await findNamed("volleyball")).toEqual(["p2"]);
    expect((await facetSearchForViewer(db, ANONYMOUS_VIEWER, { q: "volleyball" })).places).toEqual([]);
    expect((await facetSearchForViewer(db, toViewer(library.member), { q: "beach" })).places).toEqual([{ label: "Rome, Italy", count: 2, token: "place:Rome" }]);
    const own = await facetSearchForViewer(db, toViewer(library.editor), { q: "beach" });
    expect(own.places.map((facet) => [facet.label, facet.count])).toEqual([
      ["Rome, Italy", 2],
      ["New York, United States", 1],
    ]);
    // Every facet's token finds exactly its count.
    for (const facet of whole.places) expect(await findAll(facet.token), facet.token).toHaveLength(facet.count);
    for (const facet of own.places) expect(await findAll(`beach ${facet.token}`, "editor"), facet.token).toHaveLength(facet.count);
  });
});

describe(`the backfill of places on ${databaseKind} (issue 31)`, () => {
  it("names photos with coordinates and no place, in batches, never one set by hand nor 0,0; place: then finds them", async () => {
    const { f1: unnamed, f2: alsoUnnamed, f4: manual, f5: noFix } = library.ids;
    const arezzo = { gps_latitude: 43.46745, gps_longitude: 11.88513 };
    await db.updateTable("photos").set(arezzo).where("id", "in", [unnamed, alsoUnnamed]).execute();
    await db
      .updateTable("photos")
      .set({ ...arezzo, place_city: "Nonna's garden", place_region: null, place_country_code: "IT", place_source: "manual" })
      .where("id", "=", manual)
      .execute();
    await db.updateTable("photos").set({ gps_latitude: 0, gps_longitude: 0 }).where("id", "=", noFix).execute();
    announcePhotosChanged();
    expect(await findAll("place:Arezzo")).toEqual([]);

    const batches: PlaceBackfillProgress[] = [];
    expect(await backfillPlaces(db, { batchSize: 2, onBatch: (progress) => batches.push(progress) })).toEqual({ looked: 3, named: 2 });
    expect(batches).toEqual([
      { looked: 2, named: expect.any(Number) },
      { looked: 3, named: 2 },
    ]);
    const places = await db
      .selectFrom("photos")
      .select(["id", "place_city", "place_region", "place_country_code", "place_time_zone", "place_source"])
      .where("id", "in", [unnamed, manual, noFix])
      .orderBy("id")
      .execute();
    expect(places).toEqual(
      [
        { id: unnamed, place_city: "Arezzo", place_region: "Tuscany", place_country_code: "IT", place_time_zone: "Europe/Rome", place_source: "automatic" },
        { id: manual, place_city: "Nonna's garden", place_region: null, place_country_code: "IT", place_time_zone: null, place_source: "manual" },
        { id: noFix, place_city: null, place_region: null, place_country_code: null, place_time_zone: null, place_source: null },
      ].sort((left, right) => (left.id < right.id ? -1 : 1)),
    );
    expect((await findAll("place:arezzo")).sort()).toEqual(["f1", "f2"]);
    // Resumable and idempotent: what is left is only what names no place.
    expect(await backfillPlaces(db)).toEqual({ looked: 1, named: 0 });
  });
});

// ---------------------------------------------------------------------------------------------
// Over HTTP, against the shared server.

const HOSTILE = [
  "'; drop table photos; --",
  "\" OR 1=1 --",
  "NEAR(a b)",
  "NEAR(zebra quokka, 2)",
  "*",
  "a*",
  "**",
  '"',
  '"unbalanced',
  'foo"bar',
  "AND OR NOT",
  "^start",
  "col:umn",
  "title:x",
  "(((",
  ")",
  "{}[]",
  "\\",
  "%_%",
  "😀🏖️ beach",
  "עברית العربية",
  "e\u0301\u0301\u0301\u0301",
  "\u202e\u202d",
  "a\u0000b",
  "\u0000",
  "-",
  "--",
  "-\"\"",
  "tag:",
  "camera:",
  "album:'",
  "date:>=",
  "iso:>1e400",
  "f:<-1",
  "year:99999999999999999999",
  "x".repeat(500),
  "a ".repeat(200),
  // Substrings: LIKE and FTS5 syntax inside the stars, too short, too long, too many, pathological.
  "*%%%*",
  "*_*",
  "*a%*",
  "*___*",
  '*"*',
  '*"a" OR "b"*',
  "*NEAR*",
  "*NEAR(a b)*",
  "*a*",
  "***",
  "*\\*",
  "*a\u0000b*",
  `*${"a".repeat(50)}*`,
  `*${"a".repeat(51)}*`,
  `*${"a".repeat(10_240)}*`,
  Array.from({ length: 9 }, () => `*${"a".repeat(50)}*`).join(" "),
  Array.from({ length: 20 }, (_, index) => `*ab${index}*`).join(" "),
  "*aaa* ".repeat(1000),
  "-*aaa* ".repeat(20),
  // place: with wildcards, control characters, nothing, too much.
  "place:%",
  "place:_",
  "place:%_%",
  'place:"%"',
  "place:\u0007",
  'place:"\u0001\u0002"',
  "place:a\u0000b",
  "-place:",
  "place:\"\"",
  `place:${"a".repeat(480)}`,
  `place:${"a".repeat(10_240)}`,
  "place:'; drop table photos; --",
];

describe("the search API", () => {
  const visitor = new TestClient();

  it("answers hostile input with a 400 or a safe 200, never a 500", async () => {
    for (const q of HOSTILE) {
      for (const path of ["/api/search", "/api/search/facets", "/api/search/suggest"]) {
        const response = await visitor.request(`${path}?q=${encodeURIComponent(q)}`);
        const body = await response.text();
        expect([200, 400], `${path} ${JSON.stringify(q.slice(0, 40))}: ${body.slice(0, 200)}`).toContain(response.status);
        if (response.status === 400) expect(JSON.parse(body).message ?? JSON.parse(body).error).toBeTruthy();
      }
    }
  });

  it("refuses 10 kB of query with a 400 naming the limit", async () => {
    const response = await visitor.request(`/api/search?q=${"a".repeat(10_000)}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/at most 500/);
  });

  it("refuses 10 kB of place:, control characters and an empty value with a 400; SQL wildcards find nothing", async () => {
    expect((await visitor.request(`/api/search?q=${encodeURIComponent(`place:${"a".repeat(10_240)}`)}`)).status).toBe(400);
    for (const q of ["place:%", "place:_", "place:R_me", "place:%25"]) {
      const response = await visitor.request(`/api/search?q=${encodeURIComponent(q)}`);
      expect(response.status, q).toBe(200);
      expect(((await response.json()) as { photos: unknown[] }).photos, q).toEqual([]);
    }
    // A control character is refused by the API's text rule before the parser; an empty value by the parser.
    expect((await visitor.request(`/api/search?q=${encodeURIComponent('place:"\u0007"')}`)).status).toBe(400);
    const empty = await visitor.request(`/api/search?q=${encodeURIComponent("place:")}`);
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("place: needs a value");
  });

  it("names the token it cannot read", async () => {
    const response = await visitor.request(`/api/search?q=${encodeURIComponent("beach colour:red")}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("colour");
  });
});

describe("search, facets and suggestions never reveal what the viewer may not list (SECURITY.md 43)", () => {
  let world: PrivacyWorld;
  beforeAll(async () => {
    world = await createPrivacyWorld("search");
  }, 120_000);

  async function getJson(client: TestClient, path: string): Promise<{ text: string; json: unknown }> {
    const response = await client.request(path);
    const text = await response.text();
    expect(response.status, `${path}: ${text.slice(0, 300)}`).toBe(200);
    return { text, json: JSON.parse(text) };
  }

  it("a visitor finds the public photo by its word, tag, camera and album, and nothing secret by any of theirs", async () => {
    const secrets = world.secretsHiddenFrom("visitor");
    const { photos } = world;
    // Positive controls: the public photo is found.
    for (const q of [photos.public.word, photos.public.word.slice(0, 8), `tag:${photos.public.tag}`, `album:${world.publicAlbum.slug}`, `${photos.public.word} camera:iphone`]) {
      const { text, json } = await getJson(world.visitor, `/api/search?q=${encodeURIComponent(q)}`);
      expect((json as { photos: Array<{ id: string }> }).photos.map((photo) => photo.id), q).toContain(photos.public.id);
      expectNoSecrets(text, secrets, `search ${q}`);
    }
    // Each secret as a word, a prefix, a tag, an album: nothing found, nothing revealed.
    for (const visibility of ["unlisted", "members", "private"] as const) {
      const photo = photos[visibility];
      for (const q of [photo.word, photo.word.slice(0, 10), `tag:${photo.tag}`, photo.tag]) {
        const { json, text } = await getJson(world.visitor, `/api/search?q=${encodeURIComponent(q)}`);
        expect((json as { photos: unknown[] }).photos, q).toEqual([]);
        expectNoSecrets(text, secrets, `search ${q}`);
      }
    }
    for (const q of [world.privateAlbum.word, `album:${world.privateAlbum.slug}`, world.share.word]) {
      const { json } = await getJson(world.visitor, `/api/search?q=${encodeURIComponent(q)}`);
      expect((json as { photos: unknown[] }).photos, q).toEqual([]);
    }
    // The whole gallery.
    const { text: gallery } = await getJson(world.visitor, "/api/search?limit=100");
    expectNoSecrets(gallery, secrets, "the visitor's whole gallery");
  });

  it("facets count only the photos a visitor may list", async () => {
    const secrets = world.secretsHiddenFrom("visitor");
    const { text, json } = await getJson(world.visitor, `/api/search/facets?q=${encodeURIComponent(world.publicAlbum.title.split(" ").pop() as string)}`);
    const facets = json as { tags: Array<{ token: string; count: number }>; cameras: Array<{ token: string; count: number }> };
    // The album's title word finds all four for the owner, only the public one for a visitor.
    expect(facets.tags.map((facet) => facet.token)).toEqual([`tag:${world.photos.public.tag.toLowerCase()}`]);
    expect(facets.cameras.map((facet) => facet.count)).toEqual([1]);
    expectNoSecrets(text, secrets, "facets of the album's word");
    const whole = await getJson(world.visitor, "/api/search/facets");
    expect(whole.text).toContain(world.photos.public.tag.toLowerCase());
    expectNoSecrets(whole.text, secrets, "facets of the whole gallery");
    // The owner counts all four.
    const own = await getJson(world.owner, `/api/search/facets?q=${encodeURIComponent(world.publicAlbum.title.split(" ").pop() as string)}`);
    expect((own.json as { tags: unknown[] }).tags).toHaveLength(4);
  });

  it("suggestions offer the public photo's word and tag, never a secret one", async () => {
    const secrets = world.secretsHiddenFrom("visitor");
    const { photos } = world;
    const publicSuggestions = await getJson(world.visitor, `/api/search/suggest?q=${encodeURIComponent(photos.public.word.slice(0, 9))}&limit=20`);
    expect(publicSuggestions.text).toContain(photos.public.word);
    const tagSuggestions = await getJson(world.visitor, `/api/search/suggest?q=${encodeURIComponent(`tag:${photos.public.tag.slice(0, 12)}`)}&limit=20`);
    // Other test files' privacy worlds have public tags with the same beginning on the shared server.
    expect((tagSuggestions.json as { suggestions: unknown[] }).suggestions).toContainEqual({
      kind: "tag",
      label: photos.public.tag,
      token: `tag:${photos.public.tag.toLowerCase()}`,
    });
    for (const visibility of ["unlisted", "members", "private"] as const) {
      for (const q of [photos[visibility].word.slice(0, 9), `tag:${photos[visibility].tag.slice(0, 12)}`, "tag" + photos[visibility].word.slice(0, 6)]) {
        const { text } = await getJson(world.visitor, `/api/search/suggest?q=${encodeURIComponent(q)}&limit=20`);
        expectNoSecrets(text, secrets, `suggestions for ${q}`);
      }
    }
    for (const q of [world.privateAlbum.word.slice(0, 8), `album:the-${world.privateAlbum.word.slice(0, 6)}`, world.share.word.slice(0, 8), "camera:canon-eos-4", "lens:18"]) {
      const { text } = await getJson(world.visitor, `/api/search/suggest?q=${encodeURIComponent(q)}&limit=20`);
      expectNoSecrets(text, secrets, `suggestions for ${q}`);
    }
  });

  it("a member finds the members-only photo (not the unlisted or private one); the owner finds their private one", async () => {
    const { photos } = world;
    const member = await getJson(world.member, `/api/search?q=${encodeURIComponent(photos.members.word)}`);
    expect((member.json as { photos: Array<{ id: string }> }).photos.map((photo) => photo.id)).toEqual([photos.members.id]);
    const memberAlbum = await getJson(world.member, `/api/search?q=${encodeURIComponent(`album:${world.publicAlbum.slug}`)}&limit=100`);
    expectNoSecrets(memberAlbum.text, world.secretsHiddenFrom("member"), "a member's search of the album");
    expect(memberAlbum.text).toContain(photos.members.id);
    const memberSuggest = await getJson(world.member, `/api/search/suggest?q=${encodeURIComponent(photos.members.word.slice(0, 9))}`);
    expect(memberSuggest.text).toContain(photos.members.word);
    const owner = await getJson(world.owner, `/api/search?q=${encodeURIComponent(photos.private.word)}`);
    expect((owner.json as { photos: Array<{ id: string }> }).photos.map((photo) => photo.id)).toEqual([photos.private.id]);
    const ownerAlbum = await getJson(world.owner, `/api/search?q=${encodeURIComponent(world.privateAlbum.word)}`);
    // A private album's title is never indexed, even for its owner (the index cannot know who asks); album: finds it.
    expect((ownerAlbum.json as { photos: unknown[] }).photos).toEqual([]);
    const ownerAlbumTerm = await getJson(world.owner, `/api/search?q=${encodeURIComponent(`album:${world.privateAlbum.slug}`)}`);
    expect((ownerAlbumTerm.json as { photos: Array<{ id: string }> }).photos.map((photo) => photo.id)).toEqual([photos.public.id]);
  });

  it("GET /api/photos?q= answers the same search for a signed-in user, and 400 when combined with owner or visibility", async () => {
    const { photos } = world;
    const found = await getJson(world.member, `/api/photos?q=${encodeURIComponent(photos.members.word)}`);
    expect((found.json as { photos: Array<{ id: string }> }).photos.map((photo) => photo.id)).toEqual([photos.members.id]);
    const combined = await world.owner.request(`/api/photos?q=x&owner=me`);
    expect(combined.status).toBe(400);
    const long = await world.owner.request(`/api/photos?q=${"a".repeat(10_000)}`);
    expect(long.status).toBe(400);
    const bad = await world.owner.request(`/api/photos?q=${encodeURIComponent("iso:>lots")}`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("iso");
  });
});
