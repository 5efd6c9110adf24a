import type { Metadata } from "next";
import { requirePageUser } from "@/src/auth/page-guard";
import { getDb } from "@/src/db/client";
import { ProcessingQueue } from "@/src/photos/components/processing-queue";
import { getProcessingQueue } from "@/src/photos/processing-queue.service";
import { NewSelectionsCard } from "@/src/shares/components/selections/new-selections-card";
import { listNewSelectionsForUser } from "@/src/shares/proofing.service";
import { AdminPage } from "@/src/ui/admin-page";
import { getDashboardCounts } from "@/src/users/dashboard.service";

export const metadata: Metadata = { title: "Admin" };

function Stat({ value, label, testId, tone }: { value: number; label: string; testId: string; tone?: "danger" }) {
  return (
    <div className={tone && value > 0 ? `stat stat-${tone}` : "stat"}>
      <dt className="stat-label">{label}</dt>
      <dd className="stat-value" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

// /admin – the dashboard, for editors and admins: counts and the processing queue
export default async function AdminDashboardPage() {
  const user = await requirePageUser("editor", "/admin");
  const [counts, queue, newSelections] = await Promise.all([
    getDashboardCounts(getDb(), user),
    getProcessingQueue(getDb(), user),
    listNewSelectionsForUser(getDb(), user),
  ]);
  const scope = user.role === "admin" ? "Photos" : "Your photos";
  return (
    <AdminPage
      role={user.role}
      title="Dashboard"
      intro={
        <>
          Signed in as {user.name} ({user.role}).
        </>
      }
    >
      <dl className="stats">
        {counts.users !== null && <Stat value={counts.users} label="Users" testId="user-count" />}
        <Stat value={queue.counts.ready} label={`${scope} ready`} testId="ready-count" />
        <Stat value={queue.counts.processing} label="Processing" testId="processing-count" />
        <Stat value={queue.counts.failed} label="Failed" testId="failed-count" tone="danger" />
      </dl>
      <NewSelectionsCard selections={newSelections} />
      <h2>Processing queue</h2>
      <ProcessingQueue photos={queue.photos} />
    </AdminPage>
  );
}
