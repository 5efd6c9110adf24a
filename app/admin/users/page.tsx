import type { Metadata } from "next";
import { requirePageUser } from "@/src/auth/page-guard";
import { getDb } from "@/src/db/client";
import { AdminPage } from "@/src/ui/admin-page";
import { UsersAdmin } from "@/src/users/components/users-admin";
import { listUsersForAdmin } from "@/src/users/users.service";

export const metadata: Metadata = { title: "Users" };

// /admin/users – create users, set roles, disable, reset passwords, sign out everywhere (admins)
export default async function AdminUsersPage() {
  const user = await requirePageUser("admin", "/admin/users");
  const users = await listUsersForAdmin(getDb(), user);
  return (
    <AdminPage role={user.role} title="Users" intro="Who may sign in, and what each may do. Viewers see members-only photos; editors upload; admins manage everything.">
      <UsersAdmin initialUsers={users} currentUserId={user.id} />
    </AdminPage>
  );
}
