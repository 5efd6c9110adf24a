import { formatByteSize } from "@/src/photos/byte-size";
import type { BackupOverview } from "../backup-overview.service";

const WHEN = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

function describeSchedule(schedule: BackupOverview["schedule"]): string {
  if (!schedule) return "Scheduled backups are off: set BACKUP_DIR (README, “Backups”). npx contact-sheet backup makes one by hand.";
  const often = schedule.everyHours === 24 ? "Every day" : schedule.everyHours === 1 ? "Every hour" : `Every ${schedule.everyHours} hours`;
  return `${often} into ${schedule.directory}, keeping the last ${schedule.keep}.`;
}

/** The dashboard's "Backups": the last backup's outcome (scheduled or by hand) and the schedule. Admins only. */
export function BackupStatusCard({ overview }: { overview: BackupOverview }) {
  const { last, schedule } = overview;
  const how = last?.trigger === "scheduled" ? "scheduled" : "by command";
  return (
    <section aria-labelledby="backups-heading" className="backup-status" data-testid="backup-status">
      <h2 id="backups-heading">Backups</h2>
      {last === null ? (
        <p data-testid="backup-last">No backup has been made yet.</p>
      ) : (
        <div data-testid="backup-last" data-outcome={last.ok ? "ok" : "failed"} className={last.ok ? "backup-last" : "backup-last backup-last-failed"}>
          <p className="backup-outcome">
            {last.ok ? "Last backup worked" : "Last backup failed"}{" "}
            <span className="muted backup-when">
              <time dateTime={last.finishedAt}>{WHEN.format(new Date(last.finishedAt))} UTC</time>, {how}
            </span>
          </p>
          {last.ok ? (
            <p>
              {last.photos ?? 0} photos, {formatByteSize(last.mediaBytes ?? 0)} of media, in <code className="backup-path">{last.detail}</code>
            </p>
          ) : (
            <p className="backup-reason">{last.detail}</p>
          )}
        </div>
      )}
      <p className="muted backup-schedule">{describeSchedule(schedule)}</p>
    </section>
  );
}
