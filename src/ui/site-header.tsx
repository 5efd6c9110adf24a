"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { signOut, useSession } from "next-auth/react";
import type { ReactNode } from "react";
import toast from "react-hot-toast";
import { AccountMenu } from "./account-menu";
import { ThemeToggle } from "./theme/theme-toggle";

/** Where "Browse" leads and stays lit: by tag, camera, lens and year (each index page links the others). */
const BROWSE_ROOTS = ["/cameras", "/lenses", "/years", "/tags"];

/**
 * The header's right side follows the session's three states: a placeholder while it loads, a
 * sign-in link when signed out (also when the session could not be fetched), the user's menu when
 * signed in.
 */
export function SiteHeader({ siteTitle }: { siteTitle: string }) {
  const pathname = usePathname();
  const isInAlbums = pathname === "/albums" || pathname.startsWith("/albums/");
  const isOnSearch = pathname === "/search";
  const isBrowsing = BROWSE_ROOTS.some((root) => pathname === root || pathname.startsWith(`${root}/`));
  // A share link's visitor (/s/[key]) sees the site's name and the theme, never the way to sign-in or admin.
  if (pathname.startsWith("/s/")) {
    return (
      <header className="site-header">
        <div className="site-brand">
          <span className="site-title">{siteTitle}</span>
        </div>
        <div className="header-actions">
          <ThemeToggle />
        </div>
      </header>
    );
  }
  return (
    <header className="site-header">
      <div className="site-brand">
        <Link href="/" className="site-title">
          {siteTitle}
        </Link>
        <nav aria-label="Site">
          <Link href="/albums" className="site-nav-link" aria-current={isInAlbums ? (pathname === "/albums" ? "page" : "true") : undefined} data-testid="albums-link">
            Albums
          </Link>
          <Link href="/cameras" className="site-nav-link site-nav-browse" aria-current={isBrowsing ? "true" : undefined} data-testid="browse-link">
            Browse
          </Link>
          <Link href="/search" className="site-nav-link site-nav-search" aria-current={isOnSearch ? "page" : undefined} data-testid="search-link">
            <span className="site-nav-search-label">Search</span>
          </Link>
        </nav>
      </div>
      <div className="header-actions">
        <ThemeToggle />
        <SessionArea />
      </div>
    </header>
  );
}

function SessionArea() {
  const { data: session, status } = useSession();
  const pathname = usePathname();
  if (status === "loading") {
    // A status, so its name is allowed (axe: a bare span may not carry aria-label).
    return <span className="session-placeholder skeleton" role="status" aria-busy="true" aria-label="Loading your session" data-testid="session-loading" />;
  }
  if (status === "unauthenticated" || !session?.user) {
    const isOnSignIn = pathname === "/signin";
    return isOnSignIn ? null : (
      <FullPageLink className="button" href={`/signin?callbackUrl=${encodeURIComponent(pathname || "/")}`} testId="sign-in-link">
        Sign in
      </FullPageLink>
    );
  }
  return <UserMenu name={session.user.name ?? session.user.email ?? "You"} role={session.user.role} />;
}

/**
 * A link that loads a whole new document. Used for the way out of the public pages into sign-in and
 * admin: a client-side navigation would keep the public pages' analytics script running there.
 */
function FullPageLink({ href, className, testId, children }: { href: string; className?: string; testId?: string; children: ReactNode }) {
  return (
    <a href={href} className={className} data-testid={testId}>
      {children}
    </a>
  );
}

function UserMenu({ name, role }: { name: string; role: string }) {
  const router = useRouter();
  async function handleSignOut() {
    await signOut({ redirect: false });
    toast.success("Signed out");
    router.push("/");
    router.refresh();
  }
  return (
    <AccountMenu label={`Account menu for ${name}`}>
      <p className="account-identity">
        <span className="user-name">{name}</span>
        <span className="role-badge" data-testid="user-role">
          {role}
        </span>
      </p>
      {/* Every signed-in user has people to see: their own, and others' named ones where the site allows. */}
      <Link href="/people" className="account-link" data-testid="people-link">
        People
      </Link>
      {role !== "viewer" && (
        <FullPageLink href="/admin" className="account-link">
          Admin
        </FullPageLink>
      )}
      <button type="button" className="button secondary account-sign-out" onClick={handleSignOut}>
        Sign out
      </button>
    </AccountMenu>
  );
}
