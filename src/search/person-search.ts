import "server-only";
import type { Viewer } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { peopleAccessOf } from "@/src/faces/people-access";
import { listVisibleNamedPeople } from "@/src/faces/faces.repository";
import { splitWords } from "./search-query-parser";
import { personNameMatches } from "./person-search-term";
import type { NameTerm, SearchTerm } from "./search-query.types";

// The service's half of `person:` (person-search-term.ts has the SQL's): which named people a
// value names, and suggestions, both among the people this viewer may see (people-access.ts). A
// visitor sees nobody, so `person:` finds nothing for them and suggests nothing.

/** Sets, for each person: term, the ids of the named people it names (none: the term finds nothing). */
export async function resolvePersonTerms(db: DatabaseHandle, viewer: Viewer, terms: readonly SearchTerm[], into: Map<SearchTerm, string[]>): Promise<void> {
  const personTerms = terms.filter((term): term is NameTerm => term.kind === "person");
  if (personTerms.length === 0) return;
  const people = await listVisibleNamedPeople(db, await peopleAccessOf(db, viewer));
  for (const term of personTerms) {
    into.set(term, people.filter((person) => personNameMatches(person.name, term.value)).map((person) => person.id).sort());
  }
}

/** Named people (not hidden: the owner put them out of sight) whose name has a word starting with what is typed, as `person:` tokens. */
export async function suggestPeople(db: DatabaseHandle, viewer: Viewer, prefix: string, negation: string, limit: number) {
  const typed = splitWords(prefix);
  if (typed.length === 0) return [];
  const people = await listVisibleNamedPeople(db, await peopleAccessOf(db, viewer));
  const seen = new Set<string>();
  const suggestions: Array<{ kind: "person"; label: string; token: string }> = [];
  for (const person of people) {
    const words = splitWords(person.name);
    const startsHere = words.some((_, index) => typed.every((word, offset) => (offset === typed.length - 1 ? words[index + offset]?.startsWith(word) : words[index + offset] === word)));
    if (person.isHidden || !startsHere || seen.has(person.name) || suggestions.length >= limit) continue;
    seen.add(person.name);
    suggestions.push({ kind: "person", label: person.name, token: `${negation}person:"${person.name.replaceAll('"', "")}"` });
  }
  return suggestions;
}
