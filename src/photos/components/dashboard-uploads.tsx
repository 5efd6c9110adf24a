import Link from "next/link";
import type { DashboardUpload } from "../recent-uploads.service";

const STATUS_WORDS: Record<DashboardUpload["status"], string> = { processing: "Processing", ready: "Ready", failed: "Failed" };
const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** "just now", "12 minutes ago", "yesterday", then the date: when the upload arrived, read at render. */
function describeWhen(uploadedAt: string, now: number): string {
  const seconds = Math.round((new Date(uploadedAt).getTime() - now) / 1000);
  if (seconds > -60) return "just now";
  if (seconds > -3600) return RELATIVE.format(Math.round(seconds / 60), "minute");
  if (seconds > -86_400) return RELATIVE.format(Math.round(seconds / 3600), "hour");
  if (seconds > -7 * 86_400) return RELATIVE.format(Math.round(seconds / 86_400), "day");
  return DATE.format(new Date(uploadedAt));
}

/**
 * The dashboard's "Recent uploads": the last few photos that arrived, with a thumbnail, who sent
 * them (when the reader sees others' uploads), when, and their state, a failure with its reason.
 */
export function DashboardUploads({ uploads, showOwner, now }: { uploads: DashboardUpload[]; showOwner: boolean; now: number }) {
  return (
    <section aria-labelledby="recent-uploads-heading" data-testid="dashboard-uploads">
      <div className="dashboard-section-heading">
        <h2 id="recent-uploads-heading">Recent uploads</h2>
        <Link href="/admin/upload" className="button-ghost button button-small">
          Upload photos
        </Link>
      </div>
      {uploads.length === 0 ? (
        <p className="empty-state muted">Nothing uploaded yet.</p>
      ) : (
        <ul className="uploaded-list dashboard-uploads">
          {uploads.map((upload) => (
            <li key={upload.id} data-photo-id={upload.id} data-status={upload.status}>
              <span className="uploaded-thumb">
                {/* Decorative: the file name beside it says which photo this is. */}
                {/* eslint-disable-next-line @next/next/no-img-element -- an already small variant; private ones must not go through /_next/image */}
                {upload.thumbnailUrl && <img src={upload.thumbnailUrl} alt="" width={48} height={48} loading="lazy" decoding="async" />}
              </span>
              <span className="uploaded-name">
                <Link href={`/p/${upload.id}`}>{upload.name || upload.id}</Link>
                <span className="muted uploaded-note">
                  {showOwner ? `${upload.ownerName} · ` : ""}
                  <time dateTime={upload.uploadedAt}>{describeWhen(upload.uploadedAt, now)}</time>
                  {upload.status === "failed" && upload.failureReason ? ` · ${upload.failureReason}` : ""}
                </span>
              </span>
              <span className={`status-badge status-${upload.status}`}>{STATUS_WORDS[upload.status]}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
