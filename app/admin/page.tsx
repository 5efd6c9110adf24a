import type { Metadata } from "next";
import { requirePageUser } from "@/src/auth/page-guard";
import { getDb } from "@/src/db/client";
import { ProcessingQueue } from "@/src/photos/components/processing-queue";
import { getProcessingQueue } from "@/src/photos/processing-queue.service";
import { getDashboardCounts } from "@/src/users/dashboard.service";
import { AdminNav } from "@/src/ui/admin-nav";

export const metadata: Metadata = { title: "Admin" };

// /admin – the dashboard, for editors and admins: counts and the processing queue
export default async function AdminDashboardPage() {
  const user = await requirePageUser("editor", "/admin");
  const [counts, queue] = await Promise.all([getDashboardCounts(getDb(), user), getProcessingQueue(getDb(), user)]);
  const scope = user.role === "admin" ? "" : "your ";
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
          <strong data-testid="ready-count">{queue.counts.ready}</strong> {scope}photos ready
        </div>
        <div className="stat">
          <strong data-testid="processing-count">{queue.counts.processing}</strong> processing
        </div>
        <div className="stat">
          <strong data-testid="failed-count">{queue.counts.failed}</strong> failed
        </div>
      </div>
      <h2>Processing queue</h2>
      <ProcessingQueue photos={queue.photos} />
    </>
  );
}
