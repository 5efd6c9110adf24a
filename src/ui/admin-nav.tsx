"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { Role } from "@/src/access/roles";

const LINKS: Array<{ href: string; label: string; onlyFor?: Role }> = [
  { href: "/admin", label: "Dashboard" },
  { href: "/admin/photos", label: "Photos" },
  { href: "/admin/upload", label: "Upload" },
  { href: "/admin/albums", label: "Albums" },
  { href: "/admin/shares", label: "Shares" },
  { href: "/admin/tags", label: "Tags", onlyFor: "admin" },
  { href: "/admin/trash", label: "Trash" },
  { href: "/admin/tokens", label: "API tokens" },
  { href: "/admin/users", label: "Users", onlyFor: "admin" },
  { href: "/admin/settings", label: "Settings", onlyFor: "admin" },
  { href: "/admin/audit", label: "Audit log", onlyFor: "admin" },
];

/** "page" on the page's own tab; "true" on its section's tab for a page inside one (/admin/albums/[id]). */
function currentOf(pathname: string, href: string): "page" | "true" | undefined {
  if (pathname === href) return "page";
  return href !== "/admin" && pathname.startsWith(`${href}/`) ? "true" : undefined;
}

/** Which sides of a sideways-scrolling row hold tabs out of sight. */
function hiddenSides(nav: HTMLElement): { before: boolean; after: boolean } {
  const overflow = nav.scrollWidth - nav.clientWidth;
  return { before: overflow > 1 && nav.scrollLeft > 1, after: overflow > 1 && nav.scrollLeft < overflow - 1 };
}

/**
 * The admin pages' tabs; the current one is marked for screen readers and the eye alike. On a
 * phone they scroll sideways, and a fade with an arrow on each side that has more tabs says so
 * (a row cut at "Sha…" looked like the end of the list).
 */
export function AdminNav({ role }: { role: Role }) {
  const pathname = usePathname();
  const navRef = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ before: false, after: false });
  // Bring the current tab into view (the later tabs start off-screen), then keep the cues in step
  // with scrolling and with the width of the window.
  useEffect(() => {
    const nav = navRef.current;
    if (!nav) return;
    const current = nav.querySelector<HTMLElement>('[aria-current="page"]');
    if (current && nav.scrollWidth > nav.clientWidth) {
      const left = current.getBoundingClientRect().left - nav.getBoundingClientRect().left + nav.scrollLeft;
      nav.scrollLeft = Math.max(0, left - (nav.clientWidth - current.offsetWidth) / 2);
    }
    const update = () => setMore((previous) => {
      const next = hiddenSides(nav);
      return next.before === previous.before && next.after === previous.after ? previous : next;
    });
    update();
    nav.addEventListener("scroll", update, { passive: true });
    const resizes = new ResizeObserver(update);
    resizes.observe(nav);
    return () => {
      nav.removeEventListener("scroll", update);
      resizes.disconnect();
    };
  }, [pathname]);
  return (
    <div className="admin-nav-frame" data-more-before={more.before || undefined} data-more-after={more.after || undefined}>
      <nav className="admin-nav" aria-label="Admin" ref={navRef}>
        <ul className="admin-nav-list">
          {LINKS.filter((link) => !link.onlyFor || link.onlyFor === role).map((link) => (
            <li key={link.href}>
              <Link href={link.href} className="admin-nav-link" aria-current={currentOf(pathname, link.href)}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
