"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import toast from "react-hot-toast";
import { callApi } from "@/src/ui/api-client";
import { ConfirmDialog } from "@/src/ui/dialog";

/** Deletes the photo after asking; then back to the gallery, with a toast saying it is done. */
export function DeletePhotoButton({ photoId, name }: { photoId: string; name: string }) {
  const router = useRouter();
  const [isAsking, setIsAsking] = useState(false);
  const [isDeleting, setIsDeleting] = useState(false);

  async function remove(): Promise<void> {
    setIsDeleting(true);
    try {
      await callApi(`/api/photos/${photoId}`, { method: "DELETE" });
      setIsAsking(false);
      toast.success("Photo deleted");
      router.push("/");
      router.refresh();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Could not delete the photo.");
      setIsDeleting(false);
    }
  }

  return (
    <>
      <button type="button" className="button secondary photo-action photo-action-danger" onClick={() => setIsAsking(true)}>
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1l1-12M9 7V4h6v3" />
        </svg>
        <span>Delete</span>
      </button>
      <ConfirmDialog
        open={isAsking}
        title="Delete this photo?"
        confirmLabel={isDeleting ? "Deleting…" : "Delete photo"}
        tone="danger"
        isBusy={isDeleting}
        onConfirm={() => void remove()}
        onClose={() => setIsAsking(false)}
      >
        <p>
          “{name}” and every size made from it are removed for good, and its links stop working. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
