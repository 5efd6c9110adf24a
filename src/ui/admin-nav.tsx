"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
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

/** The admin pages' tabs; the current one is marked for screen readers and the eye alike. */
export function AdminNav({ role }: { role: Role }) {
  const pathname = usePathname();
  const navRef = useRef<HTMLElement>(null);
  // On a phone the tabs scroll sideways: bring the current one into view (the later tabs start off-screen).
  useEffect(() => {
    const nav = navRef.current;
    const current = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!nav || !current || nav.scrollWidth <= nav.clientWidth) return;
    const left = current.getBoundingClientRect().left - nav.getBoundingClientRect().left + nav.scrollLeft;
    nav.scrollLeft = Math.max(0, left - (nav.clientWidth - current.offsetWidth) / 2);
  }, [pathname]);
  return (
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
  );
}
