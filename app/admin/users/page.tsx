import type { Metadata } from "next";
import { requirePageUser } from "@/src/auth/page-guard";
import { UsersAdmin } from "@/src/users/components/users-admin";
import { listUsersForAdmin } from "@/src/users/users.service";
import { AdminNav } from "@/src/ui/admin-nav";
import { getDb } from "@/src/db/client";

export const metadata: Metadata = { title: "Users" };

// /admin/users – create users, set roles, disable, reset passwords, sign out everywhere (admins)
export default async function AdminUsersPage() {
  const user = await requirePageUser("admin", "/admin/users");
  const users = await listUsersForAdmin(getDb(), user);
  return (
    <>
      <AdminNav role={user.role} />
      <h1>Users</h1>
      <UsersAdmin initialUsers={users} currentUserId={user.id} />
    </>
  );
}
