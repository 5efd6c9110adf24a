"use client";

import { type ReactNode, useEffect, useId, useRef } from "react";

interface DialogProps {
  open: boolean;
  title: string;
  /** Called when the reader dismisses the dialog (Escape, Cancel); the caller sets open to false. */
  onClose: () => void;
  children: ReactNode;
  /** Added to the dialog's own class ("dialog-wide" for a picker of photos, say). */
  className?: string;
}

/**
 * A modal dialog on the native <dialog>: the browser traps focus, closes on Escape and gives focus
 * back to what opened it. Every page uses this one, never window.prompt() or confirm().
 */
export function Dialog({ open, title, onClose, children, className }: DialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      className={className ? `dialog ${className}` : "dialog"}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <div className="dialog-body">
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
          {children}
        </div>
      )}
    </dialog>
  );
}

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What will happen, in words the reader can check before agreeing. */
  children: ReactNode;
  confirmLabel: string;
  /** "danger" for what cannot be undone. */
  tone?: "default" | "danger";
  isBusy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before doing something; Cancel has the focus first, so Enter never deletes by accident. */
export function ConfirmDialog({ open, title, children, confirmLabel, tone = "default", isBusy = false, onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <div>{children}</div>
      <div className="dialog-actions">
        <button type="button" className="secondary" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button type="button" className={tone === "danger" ? "danger" : undefined} onClick={onConfirm} disabled={isBusy} aria-busy={isBusy}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
