import type { BrowseEntry } from "../browse.service";
import { type BrowseKind, UNKNOWN_YEAR_KEY } from "../browse-paths";
import { BrowseIndex } from "./browse-index";
import { BrowseNav } from "./browse-nav";

const WORDS: Record<BrowseKind, { title: string; href: "/cameras" | "/lenses" | "/years"; one: string; many: string; none: string }> = {
  camera: { title: "Cameras", href: "/cameras", one: "camera", many: "cameras", none: "No photos with a camera recorded yet." },
  lens: { title: "Lenses", href: "/lenses", one: "lens", many: "lenses", none: "No photos with a lens recorded yet." },
  year: { title: "Years", href: "/years", one: "year", many: "years", none: "No photos to show yet." },
};

/** /cameras, /lenses and /years: the ways to browse, a line saying how many, and the cards. */
export function BrowseIndexPage({ kind, entries }: { kind: BrowseKind; entries: BrowseEntry[] }) {
  const words = WORDS[kind];
  return (
    <section className="page browse-page" aria-labelledby="browse-title">
      <BrowseNav current={words.href} />
      <header className="browse-header">
        <h1 id="browse-title">{words.title}</h1>
        <p className="muted">{describeEntries(kind, entries)}</p>
      </header>
      {entries.length > 0 && <BrowseIndex entries={entries} label={words.title} />}
    </section>
  );
}

/** "3 years", and on /years whether some photos have no date: "Date unknown" is not a year. */
function describeEntries(kind: BrowseKind, entries: BrowseEntry[]): string {
  const words = WORDS[kind];
  if (entries.length === 0) return words.none;
  const counted = entries.filter((entry) => kind !== "year" || entry.key !== UNKNOWN_YEAR_KEY).length;
  const count = `${counted} ${counted === 1 ? words.one : words.many}`;
  return counted === entries.length ? count : `${count}, and photos without a date`;
}
