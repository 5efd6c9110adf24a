import type { Metadata } from "next";
import { requirePageUser } from "@/src/auth/page-guard";
import { getDb } from "@/src/db/client";
import { TagsAdmin } from "@/src/tags/components/tags-admin";
import { listTagsForAdmin } from "@/src/tags/tags.service";
import { AdminPage } from "@/src/ui/admin-page";

export const metadata: Metadata = { title: "Tags" };

// /admin/tags – every tag with its photos counted; rename inline, merge several into one (admins)
export default async function AdminTagsPage() {
  const user = await requirePageUser("admin", "/admin/tags");
  const tags = await listTagsForAdmin(getDb(), user);
  return (
    <AdminPage role={user.role} title="Tags" intro="Every tag, with all its photos counted. Rename a tag to fix its spelling; merge tags that mean the same into one.">
      <TagsAdmin initialTags={tags} />
    </AdminPage>
  );
}
