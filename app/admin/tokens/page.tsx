import type { Metadata } from "next";
import { listApiTokensOfUser } from "@/src/auth/api-tokens.service";
import { ApiTokensAdmin } from "@/src/auth/components/api-tokens-admin";
import { requirePageUser } from "@/src/auth/page-guard";
import { AdminNav } from "@/src/ui/admin-nav";
import { getDb } from "@/src/db/client";

export const metadata: Metadata = { title: "API tokens" };

// /admin/tokens – your API tokens for scripts: create (secret shown once), list, revoke (editors and admins)
export default async function AdminTokensPage() {
  const user = await requirePageUser("editor", "/admin/tokens");
  const tokens = await listApiTokensOfUser(getDb(), user);
  return (
    <>
      <AdminNav role={user.role} />
      <h1>API tokens</h1>
      <p className="muted">
        Tokens let scripts upload and manage your photos without your password. Each acts as you, with your current role,
        and only within its scopes. They cannot sign in to pages or manage users or tokens.
      </p>
      <ApiTokensAdmin initialTokens={tokens} role={user.role} />
    </>
  );
}
