"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useId, useState } from "react";
import toast from "react-hot-toast";
import { ConfirmDialog } from "@/src/ui/dialog";
import { PasswordField } from "@/src/ui/password-field";
import { DEFAULT_SHARE_EXPIRY_DAYS, type ShareDownloadRight } from "../share.types";
import { DOWNLOAD_LABELS, DOWNLOAD_RIGHTS, type ShareRequestBody, type ShareSummary, updateShareRequest } from "./share-client";

/** What the link's settings fields hold while they are edited (numbers as typed). */
export interface ShareDraft {
  title: string;
  message: string;
  /** "default": in 30 days (new links only); "date": the end of expiryDate (UTC); "never": chosen on purpose. */
  expiry: "default" | "date" | "never";
  expiryDate: string;
  maxViews: string;
  download: ShareDownloadRight;
  allowZip: boolean;
  showExif: boolean;
  showLocation: boolean;
  allowPicks: boolean;
  pickLimit: string;
}

const MINIMUM_PASSWORD = 6;

function isoDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

export function newShareDraft(title: string): ShareDraft {
  return {
    title,
    message: "",
    expiry: "default",
    expiryDate: isoDay(Date.now() + DEFAULT_SHARE_EXPIRY_DAYS * 86_400_000),
    maxViews: "",
    download: "none",
    allowZip: false,
    showExif: true,
    showLocation: false,
    allowPicks: false,
    pickLimit: "",
  };
}

export function draftOf(share: ShareSummary): ShareDraft {
  return {
    title: share.title,
    message: share.message,
    expiry: share.expiresAt === null ? "never" : "date",
    expiryDate: share.expiresAt === null ? isoDay(Date.now() + DEFAULT_SHARE_EXPIRY_DAYS * 86_400_000) : share.expiresAt.slice(0, 10),
    maxViews: share.maxViews === null ? "" : String(share.maxViews),
    download: share.download,
    allowZip: share.allowZip,
    showExif: share.showExif,
    showLocation: share.showLocation,
    allowPicks: share.allowPicks,
    pickLimit: share.pickLimit === null ? "" : String(share.pickLimit),
  };
}

function positiveOrNull(text: string): number | null {
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** The API body for a draft: a date means the end of that day (UTC); "default" sends no expiry, so the server's 30 days apply. */
export function bodyOfDraft(draft: ShareDraft): ShareRequestBody {
  const body: ShareRequestBody = {
    title: draft.title,
    message: draft.message,
    maxViews: positiveOrNull(draft.maxViews),
    download: draft.download,
    allowZip: draft.download !== "none" && draft.allowZip,
    showExif: draft.showExif,
    showLocation: draft.showLocation,
    allowPicks: draft.allowPicks,
    pickLimit: draft.allowPicks ? positiveOrNull(draft.pickLimit) : null,
  };
  if (draft.expiry === "never") body.expiresAt = null;
  if (draft.expiry === "date") body.expiresAt = `${draft.expiryDate}T23:59:59Z`;
  return body;
}

interface ShareSettingsFieldsProps {
  draft: ShareDraft;
  onChange: (patch: Partial<ShareDraft>) => void;
  /** New links offer "in 30 days" as the first choice; a link being edited has a date or never. */
  mode: "create" | "edit";
}

/** The link's settings, for the "Share…" dialog and the link's own page alike. */
export function ShareSettingsFields({ draft, onChange, mode }: ShareSettingsFieldsProps) {
  const id = useId();
  const [today] = useState(() => isoDay(Date.now()));
  return (
    <div className="share-settings">
      <div className="field">
        <label htmlFor={`${id}-title`}>Title</label>
        <input id={`${id}-title`} value={draft.title} required maxLength={200} onChange={(event) => onChange({ title: event.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-message`}>
          Message <span className="field-hint">shown to visitors above the photos</span>
        </label>
        <textarea id={`${id}-message`} rows={2} maxLength={5000} value={draft.message} onChange={(event) => onChange({ message: event.target.value })} />
      </div>
      <fieldset className="share-expiry">
        <legend>Expires</legend>
        {mode === "create" && (
          <label className="checkbox-field">
            <input type="radio" name={`${id}-expiry`} checked={draft.expiry === "default"} onChange={() => onChange({ expiry: "default" })} />
            In {DEFAULT_SHARE_EXPIRY_DAYS} days
          </label>
        )}
        <label className="checkbox-field share-expiry-date">
          <input type="radio" name={`${id}-expiry`} checked={draft.expiry === "date"} onChange={() => onChange({ expiry: "date" })} />
          On
          <input
            type="date"
            aria-label="Expiry date"
            min={today}
            value={draft.expiryDate}
            onChange={(event) => onChange({ expiry: "date", expiryDate: event.target.value })}
          />
        </label>
        <label className="checkbox-field">
          <input type="radio" name={`${id}-expiry`} checked={draft.expiry === "never"} onChange={() => onChange({ expiry: "never" })} />
          Never: the link works until you revoke it
        </label>
      </fieldset>
      <div className="share-settings-row">
        <div className="field">
          <label htmlFor={`${id}-views`}>
            View limit <span className="field-hint">browsers admitted; empty: no limit</span>
          </label>
          <input id={`${id}-views`} type="number" inputMode="numeric" min={1} value={draft.maxViews} onChange={(event) => onChange({ maxViews: event.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-download`}>Downloads</label>
          <select id={`${id}-download`} value={draft.download} onChange={(event) => onChange({ download: event.target.value as ShareDownloadRight })}>
            {DOWNLOAD_RIGHTS.map((right) => (
              <option key={right} value={right}>
                {DOWNLOAD_LABELS[right]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="share-switches">
        <legend>Visitors may</legend>
        <label className="checkbox-field">
          <input type="checkbox" checked={draft.download !== "none" && draft.allowZip} disabled={draft.download === "none"} onChange={(event) => onChange({ allowZip: event.target.checked })} />
          Download everything as one ZIP
        </label>
        <label className="checkbox-field">
          <input type="checkbox" checked={draft.showExif} onChange={(event) => onChange({ showExif: event.target.checked })} />
          See camera, lens, exposure and date
        </label>
        <label className="checkbox-field">
          <input type="checkbox" checked={draft.showLocation} onChange={(event) => onChange({ showLocation: event.target.checked })} />
          See where photos were taken
        </label>
        <label className="checkbox-field">
          <input type="checkbox" checked={draft.allowPicks} onChange={(event) => onChange({ allowPicks: event.target.checked })} />
          Pick favourites and comment
        </label>
        {draft.allowPicks && (
          <div className="field share-pick-limit">
            <label htmlFor={`${id}-picks`}>
              Pick limit <span className="field-hint">per visitor; empty: no limit</span>
            </label>
            <input id={`${id}-picks`} type="number" inputMode="numeric" min={1} value={draft.pickLimit} onChange={(event) => onChange({ pickLimit: event.target.value })} />
          </div>
        )}
      </fieldset>
    </div>
  );
}

/** The link's page: its settings, password set/change/remove, Revoke (asked first) and Delete. */
export function ShareSettingsForm({ initialShare }: { initialShare: ShareSummary }) {
  const router = useRouter();
  const [share, setShare] = useState(initialShare);
  const [draft, setDraft] = useState(() => draftOf(initialShare));
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState<"save" | "password" | "revoke" | "delete" | null>(null);
  const [confirming, setConfirming] = useState<"revoke" | "delete" | null>(null);
  const isRevoked = share.state === "revoked";

  async function send(kind: "save" | "password" | "revoke", body: ShareRequestBody, done: string) {
    setBusy(kind);
    try {
      const changed = await updateShareRequest(share.id, body);
      setShare(changed);
      if (kind === "save") setDraft(draftOf(changed));
      if (kind === "password") setPassword("");
      toast.success(done);
      router.refresh();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "The link could not be changed; nothing was changed.");
    } finally {
      setBusy(null);
      setConfirming(null);
    }
  }

  async function remove() {
    setBusy("delete");
    try {
      const response = await fetch(`/api/shares/${encodeURIComponent(share.id)}`, { method: "DELETE" });
      if (!response.ok) throw new Error(`The link could not be deleted (${response.status}).`);
      toast.success("Link deleted");
      router.push("/admin/shares");
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "The link could not be deleted.");
      setBusy(null);
      setConfirming(null);
    }
  }

  function save(event: FormEvent) {
    event.preventDefault();
    void send("save", bodyOfDraft(draft), "Settings saved");
  }

  function savePassword(event: FormEvent) {
    event.preventDefault();
    void send("password", { password }, share.hasPassword ? "Password changed: visitors must enter the new one" : "Password set");
  }

  return (
    <div className="share-settings-form">
      <form className="admin-panel" onSubmit={save} aria-label="Link settings">
        <h2 className="admin-panel-title">Settings</h2>
        <ShareSettingsFields draft={draft} onChange={(patch) => setDraft((current) => ({ ...current, ...patch }))} mode="edit" />
        <div className="dialog-actions">
          <button type="submit" disabled={busy !== null} aria-busy={busy === "save"}>
            Save settings
          </button>
        </div>
      </form>

      <form className="admin-panel" onSubmit={savePassword} aria-label="Password">
        <h2 className="admin-panel-title">Password</h2>
        <p className="muted share-panel-text">
          {share.hasPassword
            ? "Visitors enter a password before they see anything. Changing it makes everyone enter the new one."
            : "Anyone with the link can open it. A password asks for more than the link."}
        </p>
        <PasswordField
          name="share-password"
          label={share.hasPassword ? "New password" : "Password"}
          hint={`At least ${MINIMUM_PASSWORD} characters; send it apart from the link.`}
          value={password}
          onChange={setPassword}
          minLength={MINIMUM_PASSWORD}
        />
        <div className="dialog-actions">
          {share.hasPassword && (
            <button type="button" className="secondary" disabled={busy !== null} onClick={() => void send("password", { password: null }, "Password removed")}>
              Remove password
            </button>
          )}
          <button type="submit" disabled={busy !== null || password.length < MINIMUM_PASSWORD} aria-busy={busy === "password"}>
            {share.hasPassword ? "Change password" : "Set password"}
          </button>
        </div>
      </form>

      <section className="admin-panel share-danger" aria-label="Revoke or delete">
        <h2 className="admin-panel-title">End the link</h2>
        <p className="muted share-panel-text">
          {isRevoked
            ? "This link is revoked: it opens nothing, for good. Make a new link to share these photos again."
            : "Revoking ends access at once, to the pages, every image and the downloads. A revoked link is never reopened."}
        </p>
        <div className="dialog-actions">
          <button type="button" className="secondary" disabled={busy !== null} onClick={() => setConfirming("delete")}>
            Delete link
          </button>
          {!isRevoked && (
            <button type="button" className="danger" disabled={busy !== null} onClick={() => setConfirming("revoke")}>
              Revoke link
            </button>
          )}
        </div>
      </section>

      <ConfirmDialog
        open={confirming === "revoke"}
        title="Revoke this link?"
        confirmLabel="Revoke link"
        tone="danger"
        isBusy={busy === "revoke"}
        onConfirm={() => void send("revoke", { revoked: true }, "Link revoked")}
        onClose={() => setConfirming(null)}
      >
        <p className="dialog-text">Everyone with “{share.title}” loses access at once, and the link cannot be opened again.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "delete"}
        title="Delete this link?"
        confirmLabel="Delete link"
        tone="danger"
        isBusy={busy === "delete"}
        onConfirm={() => void remove()}
        onClose={() => setConfirming(null)}
      >
        <p className="dialog-text">The link, its visitors’ picks and its access log go. The photos stay.</p>
      </ConfirmDialog>
    </div>
  );
}
