"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { Role } from "@/src/access/roles";

const LINKS: Array<{ href: string; label: string; onlyFor?: Role }> = [
  { href: "/admin", label: "Dashboard" },
  { href: "/admin/upload", label: "Upload" },
  { href: "/admin/albums", label: "Albums" },
  { href: "/admin/tokens", label: "API tokens" },
  { href: "/admin/users", label: "Users", onlyFor: "admin" },
];

/** "page" on the page's own tab; "true" on its section's tab for a page inside one (/admin/albums/[id]). */
function currentOf(pathname: string, href: string): "page" | "true" | undefined {
  if (pathname === href) return "page";
  return href !== "/admin" && pathname.startsWith(`${href}/`) ? "true" : undefined;
}

/** The admin pages' tabs; the current one is marked for screen readers and the eye alike. */
export function AdminNav({ role }: { role: Role }) {
  const pathname = usePathname();
  return (
    <nav className="admin-nav" aria-label="Admin">
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
