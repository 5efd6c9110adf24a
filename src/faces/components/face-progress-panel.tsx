import Link from "next/link";
import type { FaceSettingsView } from "../face-settings.service";

/** The dashboard's people line (admins): how far detection has come over the photos of those who agreed (face-consent.service.ts). */
export function FaceProgressPanel({ view }: { view: FaceSettingsView }) {
  const { settings, progress } = view;
  return (
    <section className="face-progress" aria-labelledby="face-progress-title" data-testid="face-progress">
      <h2 id="face-progress-title">People</h2>
      {settings.enabled ? (
        <>
          <p>
            Looked for faces in {progress.scanned} of {progress.total} photos of people who agreed · {progress.faces} {progress.faces === 1 ? "face" : "faces"} found.{" "}
            <Link href="/people">Your people</Link>
          </p>
          <progress max={Math.max(progress.total, 1)} value={progress.scanned} aria-label="Photos looked at for faces" />
        </>
      ) : (
        <p className="muted">
          Finding faces is off. <Link href="/admin/settings">Turn it on in Settings</Link>.
        </p>
      )}
    </section>
  );
}
