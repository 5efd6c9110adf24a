import Link from "next/link";

const SECTIONS = [
  { href: "/tags", label: "Tags" },
  { href: "/cameras", label: "Cameras" },
  { href: "/lenses", label: "Lenses" },
  { href: "/years", label: "Years" },
  { href: "/places", label: "Places" },
  { href: "/map", label: "Map" },
] as const;

/** The ways to browse, side by side at the top of each index page (/tags, /cameras, /lenses, /years, /places, /map). */
export function BrowseNav({ current }: { current: (typeof SECTIONS)[number]["href"] }) {
  return (
    <nav className="browse-nav" aria-label="Browse by">
      <ul>
        {SECTIONS.map((section) => (
          <li key={section.href}>
            <Link href={section.href} aria-current={section.href === current ? "page" : undefined}>
              {section.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
