import type { Metadata } from "next";
import { requirePageUser } from "@/src/auth/page-guard";
import { getBackupOverview } from "@/src/backup/backup-overview.service";
import { BackupStatusCard } from "@/src/backup/components/backup-status-card";
import { getDb } from "@/src/db/client";
import { FaceProgressPanel } from "@/src/faces/components/face-progress-panel";
import { getFaceSettingsView } from "@/src/faces/face-settings.service";
import { DashboardUploads } from "@/src/photos/components/dashboard-uploads";
import { ProcessingQueue } from "@/src/photos/components/processing-queue";
import { StorageUsagePanel } from "@/src/photos/components/storage-usage-panel";
import { getProcessingQueue } from "@/src/photos/processing-queue.service";
import { listDashboardUploads } from "@/src/photos/recent-uploads.service";
import { getStorageUsage } from "@/src/photos/storage-usage.service";
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

/** When this page was rendered: "12 minutes ago" is read against it. */
function renderedAt(): number {
  return Date.now();
}

// /admin – the dashboard, for editors and admins: counts, storage used, recent uploads and the processing queue
// (everyone's for an admin, an editor's own)
export default async function AdminDashboardPage() {
  const user = await requirePageUser("editor", "/admin");
  const [counts, queue, newSelections, storage, uploads] = await Promise.all([
    getDashboardCounts(getDb(), user),
    getProcessingQueue(getDb(), user),
    listNewSelectionsForUser(getDb(), user),
    getStorageUsage(getDb(), user),
    listDashboardUploads(getDb(), user),
  ]);
  const isAdmin = user.role === "admin";
  const backups = isAdmin ? await getBackupOverview(getDb(), user) : null;
  const faces = isAdmin ? await getFaceSettingsView(getDb()) : null;
  const scope = isAdmin ? "Photos" : "Your photos";
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
      <DashboardUploads uploads={uploads} showOwner={isAdmin} now={renderedAt()} />
      <StorageUsagePanel usage={storage} perUser={isAdmin} />
      {backups && <BackupStatusCard overview={backups} />}
      {faces && <FaceProgressPanel view={faces} />}
      <h2>Processing queue</h2>
      <ProcessingQueue photos={queue.photos} />
    </AdminPage>
  );
}
