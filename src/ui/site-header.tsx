"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { signOut, useSession } from "next-auth/react";
import toast from "react-hot-toast";

/**
 * The header's right side follows the session's three states: a placeholder while it loads, a
 * sign-in link when signed out (also when the session could not be fetched), the user's menu when
 * signed in.
 */
export function SiteHeader({ siteTitle }: { siteTitle: string }) {
  return (
    <header className="site-header">
      <Link href="/" className="site-title">
        {siteTitle}
      </Link>
      <SessionArea />
    </header>
  );
}

function SessionArea() {
  const { data: session, status } = useSession();
  const pathname = usePathname();
  if (status === "loading") {
    return <span className="session-placeholder" aria-busy="true" aria-label="Loading your session" data-testid="session-loading" />;
  }
  if (status === "unauthenticated" || !session?.user) {
    const isOnSignIn = pathname === "/signin";
    return isOnSignIn ? null : (
      <Link className="button" href={`/signin?callbackUrl=${encodeURIComponent(pathname || "/")}`} data-testid="sign-in-link">
        Sign in
      </Link>
    );
  }
  return <UserMenu name={session.user.name ?? session.user.email ?? "You"} role={session.user.role} />;
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
    <nav className="user-menu" aria-label="Your account" data-testid="user-menu">
      {role !== "viewer" && <Link href="/admin">Admin</Link>}
      <span className="user-name">{name}</span>
      <span className="role-badge" data-testid="user-role">
        {role}
      </span>
      <button type="button" className="button secondary" onClick={handleSignOut}>
        Sign out
      </button>
    </nav>
  );
}
