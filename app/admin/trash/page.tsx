import type { Metadata } from "next";
import { requirePageUser } from "@/src/auth/page-guard";
import { getDb } from "@/src/db/client";
import { TrashBrowser } from "@/src/photos/components/trash/trash-browser";
import { listTrash } from "@/src/photos/trash.service";
import { AdminPage } from "@/src/ui/admin-page";

export const metadata: Metadata = { title: "Trash" };

// /admin/trash – deleted photos, kept for the site's retention: restore them or delete them for good
export default async function AdminTrashPage() {
  const user = await requirePageUser("editor", "/admin/trash");
  const trash = await listTrash(getDb(), user, { limit: 100 });
  return (
    <AdminPage
      role={user.role}
      title="Trash"
      intro={`Deleted photos are hidden everywhere and kept here for ${trash.retentionDays} days, then deleted for good with their files.`}
    >
      <TrashBrowser initialPhotos={trash.photos} initialCursor={trash.nextCursor} retentionDays={trash.retentionDays} />
    </AdminPage>
  );
}
