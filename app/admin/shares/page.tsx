import type { Metadata } from "next";
import { requirePageUser } from "@/src/auth/page-guard";
import { getDb } from "@/src/db/client";
import { SharesTable } from "@/src/shares/components/shares-table";
import { listShares } from "@/src/shares/shares.service";
import { AdminPage } from "@/src/ui/admin-page";

export const metadata: Metadata = { title: "Share links" };

// /admin/shares – every share link the reader manages (an admin: everyone's) with state, views, downloads and last visit
export default async function AdminSharesPage() {
  const user = await requirePageUser("editor", "/admin/shares");
  const { shares, nextCursor } = await listShares(getDb(), user, { limit: 50 });
  return (
    <AdminPage
      role={user.role}
      title="Share links"
      intro="Links that open chosen photos to people without an account, private ones included, until they expire or you revoke them. Make one with “Share…” in Photos or on an album."
    >
      <SharesTable initialShares={shares} initialCursor={nextCursor} showOwner={user.role === "admin"} />
    </AdminPage>
  );
}
