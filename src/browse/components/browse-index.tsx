import Link from "next/link";
import type { CSSProperties } from "react";
import type { BrowseEntry } from "../browse.service";
import { toBrowseCover } from "./browse-cover";

// Cards are two to a row on a phone, up to six on a wide screen (see browse.css).
const COVER_SIZES = "(max-width: 40rem) 50vw, (max-width: 64rem) 33vw, 16rem";
const EAGER_CARDS = 6;

/** "1 photo", "1,204 photos". */
export function describeCount(count: number): string {
  return `${count.toLocaleString("en-GB")} ${count === 1 ? "photo" : "photos"}`;
}

// Below this many cards one grid reads best; past it, a heading per group (cameras by maker) helps.
const GROUP_FROM = 8;

/** The entries as cards (cover, name, count), under a heading per group when there are enough of them to need it. */
export function BrowseIndex({ entries, label }: { entries: BrowseEntry[]; label: string }) {
  const groups: Array<{ name: string | null; entries: BrowseEntry[] }> = [];
  for (const entry of entries) {
    const name = entries.length >= GROUP_FROM ? entry.group : null;
    const last = groups[groups.length - 1];
    if (last && last.name === name) last.entries.push(entry);
    else groups.push({ name, entries: [entry] });
  }
  let index = 0;
  return (
    <div className="browse-index" data-testid="browse-index">
      {groups.map((group) => (
        <section key={group.name ?? ""} className="browse-group" aria-label={group.name ?? label}>
          {group.name && <h2 className="browse-group-title">{group.name}</h2>}
          <ul className="browse-grid" aria-label={group.name ?? label}>
            {group.entries.map((entry) => (
              <BrowseCard key={entry.key} entry={entry} eager={index++ < EAGER_CARDS} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function BrowseCard({ entry, eager }: { entry: BrowseEntry; eager: boolean }) {
  const cover = toBrowseCover(entry.cover);
  return (
    <li className={`browse-card browse-card-${entry.kind}`} data-testid="browse-card" data-key={entry.key}>
      <Link href={entry.path} className="browse-card-link">
        <span className="browse-cover" style={{ backgroundColor: cover?.color ?? undefined } as CSSProperties}>
          {cover && (
            <picture>
              {cover.avif && <source type="image/avif" srcSet={cover.avif} sizes={COVER_SIZES} />}
              {/* Our own variants, never /_next/image. Decorative: the name beside it names the link. */}
              <img src={cover.src} srcSet={cover.jpeg} sizes={COVER_SIZES} alt="" loading={eager ? "eager" : "lazy"} decoding="async" />
            </picture>
          )}
        </span>
        <span className="browse-card-text">
          <span className="browse-card-name">{entry.name}</span>
          <span className="browse-card-count" data-testid="browse-card-count">
            {describeCount(entry.count)}
          </span>
        </span>
      </Link>
    </li>
  );
}
