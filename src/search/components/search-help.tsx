import Link from "next/link";
import { searchHref } from "./search-href";

/** Every part of the search language with an example that runs it. */
const ROWS: { syntax: string; example: string; meaning: string }[] = [
  { syntax: "words", example: "beach sunset", meaning: "Every word, at the start of a word in the title, caption, alt text, tags, public album titles, camera or lens. Accents and case do not matter." },
  { syntax: "*part*", example: "*ton*", meaning: "These letters anywhere inside a word (*ton* finds Boston and cartons): at least 3 letters or digits." },
  { syntax: '"phrase"', example: '"red door"', meaning: "These words in a row." },
  { syntax: "-term", example: "beach -tag:crowd", meaning: "Leave out photos that match the term. Works with every field." },
  {
    syntax: "person:",
    example: 'person:anna  person:"anna berg"',
    meaning: "A named person is in the photo: their name or a run of its words. Only people you may see: your own, and others' named people when the site lets members see people.",
  },
  { syntax: "tag:", example: "tag:beach", meaning: "Tagged so (any case or accents)." },
  { syntax: "album:", example: "album:summer-2019", meaning: "In the album with this address." },
  { syntax: "camera:", example: 'camera:canon  camera:"eos 40d"', meaning: "Taken with this camera: a make, a model, or both." },
  { syntax: "lens:", example: "lens:50mm", meaning: "Taken with this lens, or any lens with these words." },
  { syntax: "place:", example: 'place:Rome  place:"New York"  place:IT', meaning: "Taken in this town, region or country (its whole name, any case or accents), or a country by its two-letter code." },
  { syntax: "year:", example: "year:2019  year:>=2015  year:2015..2019", meaning: "Taken in, after, before or between these years." },
  { syntax: "date:", example: "date:2024-05  date:>=2024-05-01  date:2024-05-01..2024-05-07", meaning: "Taken on a day, in a month or year, or in a range of them (UTC)." },
  { syntax: "iso:", example: "iso:>1600  iso:<=200", meaning: "Sensitivity: =, >, >=, < or <= a number." },
  { syntax: "f:", example: "f:<2.8  f:>=8", meaning: "Aperture (f-number), compared the same way." },
  { syntax: "orientation:", example: "orientation:portrait", meaning: "portrait, landscape or square." },
  { syntax: "rating:", example: "rating:>=4  rating:5", meaning: "Your own photos with these stars (0: none), compared like iso:. Only you see and search your ratings." },
  { syntax: "label:", example: "label:red  label:none", meaning: "Your own photos with this colour label: red, yellow, green, blue, purple, or none. Only you see and search your labels." },
];

/** The grammar, on the page: folded away under its summary, open when there is nothing else to show. */
export function SearchHelp({ open }: { open: boolean }) {
  return (
    <details className="search-help" open={open}>
      <summary>How to search</summary>
      <p className="search-help-lead">
        Type words, fields or both. Every term narrows the results; quotes hold words together and a <code>-</code> in front leaves a term out.
      </p>
      <dl className="search-help-list">
        {ROWS.map((row) => (
          <div key={row.syntax} className="search-help-row">
            <dt>
              <code>{row.syntax}</code>
            </dt>
            <dd>
              <span className="search-help-meaning">{row.meaning}</span>
              <span className="search-help-examples">
                {row.example.split("  ").map((example) => (
                  <Link key={example} href={searchHref(example)} className="search-help-example">
                    <code>{example}</code>
                  </Link>
                ))}
              </span>
            </dd>
          </div>
        ))}
      </dl>
      <p className="search-help-note muted">
        A word followed by a colon must be one of the fields above (quote it to search for it as text: <code>&quot;note: draft&quot;</code>); times such as 10:30 are plain words. At most 20
        terms and 500 characters.
      </p>
    </details>
  );
}
