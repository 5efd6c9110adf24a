import type { Metadata } from "next";
import { requirePageUser } from "@/src/auth/page-guard";
import { getDashboardCounts } from "@/src/users/dashboard.service";
import { AdminNav } from "@/src/ui/admin-nav";

export const metadata: Metadata = { title: "Admin" };

// /admin – the dashboard, for editors and admins
export default async function AdminDashboardPage() {
  const user = await requirePageUser("editor", "/admin");
  const counts = await getDashboardCounts(user);
  return (
    <>
      <AdminNav role={user.role} />
      <h1>Dashboard</h1>
      <p className="muted">
        Signed in as {user.name} ({user.role}).
      </p>
      <div className="stats">
        {counts.users !== null && (
          <div className="stat">
            <strong data-testid="user-count">{counts.users}</strong> users
          </div>
        )}
        <div className="stat">
          <strong>0</strong> photos
        </div>
      </div>
    </>
  );
}
