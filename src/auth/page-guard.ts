import "server-only";
import { forbidden, redirect } from "next/navigation";
import { findCurrentViewer } from "./current-user";
import { hasRole, type Role } from "@/src/access/roles";
import { type SessionUser, signedInUser } from "@/src/access/viewer";

/**
 * The guard each protected page calls first (a layout is never a guard: it does not run for every
 * request). Signed out: 307 to sign-in, coming back here after. Wrong role: the 403 page.
 */
export async function requirePageUser(role: Role, currentPath: string): Promise<SessionUser> {
  const user = signedInUser(await findCurrentViewer());
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(currentPath)}`);
  if (!hasRole(user.role, role)) forbidden();
  return user;
}
