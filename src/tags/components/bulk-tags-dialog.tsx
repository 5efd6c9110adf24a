"use client";

import { useState } from "react";
import toast from "react-hot-toast";
import { callApi } from "@/src/ui/api-client";
import { Dialog } from "@/src/ui/dialog";
import { TagInput } from "./tag-input";

interface BulkTagsDialogProps {
  open: boolean;
  /** The selected photos; every one must be the user's to change, or nothing changes. */
  photoIds: string[];
  onClose: () => void;
  /** After a change went through (to refresh the list). */
  onDone?: () => void;
}

/**
 * Adds tags to, or takes them off, several photos at once (the library's bulk edit): one request,
 * all or nothing (POST /api/tags/photos). For the library's selection bar to open.
 */
export function BulkTagsDialog({ open, photoIds, onClose, onDone }: BulkTagsDialogProps) {
  const [names, setNames] = useState<string[]>([]);
  const [busy, setBusy] = useState<"add" | "remove" | null>(null);
  const count = photoIds.length;

  async function run(action: "add" | "remove") {
    setBusy(action);
    try {
      await callApi("/api/tags/photos", { method: "POST", body: { action, photoIds, names } });
      const what = `${names.length} ${names.length === 1 ? "tag" : "tags"}`;
      toast.success(action === "add" ? `Added ${what} to ${count} ${count === 1 ? "photo" : "photos"}` : `Removed ${what} from ${count} ${count === 1 ? "photo" : "photos"}`);
      setNames([]);
      onDone?.();
      onClose();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Could not change the tags.");
    } finally {
      setBusy(null);
    }
  }

  return (
    <Dialog open={open} title={`Tags of ${count} ${count === 1 ? "photo" : "photos"}`} onClose={onClose}>
      <TagInput label="Tags" value={names} onChange={setNames} hint="Add these to every selected photo, or take them off." />
      <div className="dialog-actions">
        <button type="button" className="secondary dialog-actions-start" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="secondary" disabled={names.length === 0 || busy !== null} aria-busy={busy === "remove"} onClick={() => run("remove")}>
          Remove from photos
        </button>
        <button type="button" disabled={names.length === 0 || busy !== null} aria-busy={busy === "add"} onClick={() => run("add")}>
          Add to photos
        </button>
      </div>
    </Dialog>
  );
}
