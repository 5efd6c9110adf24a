"use client";

import { useState } from "react";
import toast from "react-hot-toast";
import { Dialog } from "@/src/ui/dialog";
import { PasswordField } from "@/src/ui/password-field";
import { createShareRequest, describePhotos, type ShareSummary } from "./share-client";
import { CopyLinkButton } from "./copy-link-button";
import { bodyOfDraft, newShareDraft, type ShareDraft, ShareSettingsFields } from "./share-settings-form";

/** What the link is made from: an album (a snapshot of its photos you may edit) or photos by id. */
export type ShareSource = { kind: "album"; albumId: string; title: string } | { kind: "photos"; photoIds: string[] };

interface CreateShareDialogProps {
  open: boolean;
  source: ShareSource;
  onClose: () => void;
}

const MINIMUM_PASSWORD = 6;

function defaultTitle(source: ShareSource): string {
  if (source.kind === "album") return source.title;
  return source.photoIds.length === 1 ? "A shared photo" : `${source.photoIds.length} shared photos`;
}

/**
 * "Share…": the settings of a new link (expiry in 30 days unless another date or "never" is chosen
 * on purpose, an optional password, limits, rights, switches); once made, the link with a copy button.
 */
export function CreateShareDialog({ open, source, onClose }: CreateShareDialogProps) {
  return (
    <Dialog open={open} title={source.kind === "album" ? "Share this album" : `Share ${describePhotos(source.photoIds.length)}`} onClose={onClose} className="share-dialog">
      {/* Mounted afresh each time the dialog opens, so a new link starts from the defaults. */}
      {open && <CreateShareBody source={source} onClose={onClose} />}
    </Dialog>
  );
}

function CreateShareBody({ source, onClose }: { source: ShareSource; onClose: () => void }) {
  const [draft, setDraft] = useState<ShareDraft>(() => newShareDraft(defaultTitle(source)));
  const [usePassword, setUsePassword] = useState(false);
  const [password, setPassword] = useState("");
  const [isBusy, setIsBusy] = useState(false);
  const [created, setCreated] = useState<ShareSummary | null>(null);

  async function create() {
    setIsBusy(true);
    try {
      const body = { ...bodyOfDraft(draft), ...(source.kind === "album" ? { albumId: source.albumId } : { photoIds: source.photoIds }), ...(usePassword ? { password } : {}) };
      setCreated(await createShareRequest(body));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "The link could not be made.");
    } finally {
      setIsBusy(false);
    }
  }

  if (created) {
    return (
      <div className="share-created">
        <p className="dialog-text">
          The link to “{created.title}” opens {describePhotos(created.photoCount)}
          {created.expiresAt === null ? " until you revoke it" : ` until ${created.expiresAt.slice(0, 10)}`}
          {created.hasPassword ? ", with the password you chose" : ""}.
        </p>
        <div className="share-link-box">
          <input readOnly value={created.url} aria-label="Share link" onFocus={(event) => event.target.select()} />
          <CopyLinkButton url={created.url} className="button" />
        </div>
        <div className="dialog-actions">
          <a className="button secondary dialog-actions-start" href={`/admin/shares/${created.id}`}>
            Open link settings
          </a>
          <button type="button" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    );
  }

  const passwordMissing = usePassword && password.length < MINIMUM_PASSWORD;
  return (
    <form
      className="share-create-form"
      onSubmit={(event) => {
        event.preventDefault();
        void create();
      }}
    >
      {source.kind === "album" && <p className="muted dialog-text">The link holds the album’s photos you may share as they are now; later changes to the album do not change it.</p>}
      <ShareSettingsFields draft={draft} onChange={(patch) => setDraft((current) => ({ ...current, ...patch }))} mode="create" />
      <label className="checkbox-field">
        <input type="checkbox" checked={usePassword} onChange={(event) => setUsePassword(event.target.checked)} />
        Ask visitors for a password
      </label>
      {usePassword && (
        <PasswordField
          name="new-share-password"
          label="Password"
          hint={`At least ${MINIMUM_PASSWORD} characters; send it apart from the link.`}
          value={password}
          onChange={setPassword}
          minLength={MINIMUM_PASSWORD}
        />
      )}
      <p className="muted share-privacy-note">Private photos stay private in the gallery: only this link opens them.</p>
      <div className="dialog-actions">
        <button type="button" className="secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" disabled={isBusy || passwordMissing || draft.title.trim() === ""} aria-busy={isBusy}>
          Create link
        </button>
      </div>
    </form>
  );
}
