import type { Metadata } from "next";
import { listApiTokensOfUser } from "@/src/auth/api-tokens.service";
import { ApiTokensAdmin } from "@/src/auth/components/api-tokens-admin";
import { requirePageUser } from "@/src/auth/page-guard";
import { getDb } from "@/src/db/client";
import { AdminPage } from "@/src/ui/admin-page";

export const metadata: Metadata = { title: "API tokens" };

// /admin/tokens – your API tokens for scripts: create (secret shown once), list, revoke (editors and admins)
export default async function AdminTokensPage() {
  const user = await requirePageUser("editor", "/admin/tokens");
  const tokens = await listApiTokensOfUser(getDb(), user);
  return (
    <AdminPage
      role={user.role}
      title="API tokens"
      intro="Tokens let scripts upload and manage your photos without your password. Each acts as you, with your current role, and only within its scopes. They cannot sign in to pages or manage users or tokens."
    >
      <ApiTokensAdmin initialTokens={tokens} role={user.role} />
    </AdminPage>
  );
}
