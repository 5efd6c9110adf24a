"use client";

import { type FormEvent, useState } from "react";
import { Dialog } from "@/src/ui/dialog";
import { PasswordField } from "@/src/ui/password-field";
import type { PublicUser } from "../users.schemas";

const GENERATED_LENGTH = 20;
// No look-alikes (0/O, 1/l/I), so a password read out or copied by hand survives.
const ALPHABET = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A random password from the browser's CSPRNG (rejection sampling keeps every character equally likely). */
function generatePassword(): string {
  const limit = 256 - (256 % ALPHABET.length);
  let password = "";
  while (password.length < GENERATED_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(GENERATED_LENGTH * 2))) {
      if (byte < limit && password.length < GENERATED_LENGTH) password += ALPHABET[byte % ALPHABET.length];
    }
  }
  return password;
}

interface ResetPasswordDialogProps {
  /** The user whose password is being reset; null when the dialog is closed. */
  user: PublicUser | null;
  isBusy: boolean;
  onClose: () => void;
  onReset: (user: PublicUser, password: string) => Promise<void>;
}

/** Asks for (or generates) a new password; it stays hidden until the admin presses Show. */
export function ResetPasswordDialog({ user, isBusy, onClose, onReset }: ResetPasswordDialogProps) {
  const [password, setPassword] = useState("");

  function close() {
    setPassword("");
    onClose();
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!user) return;
    await onReset(user, password);
    setPassword("");
  }

  return (
    <Dialog open={user !== null} title={`Reset the password of ${user?.email ?? ""}`} onClose={close}>
      <form className="form" onSubmit={handleSubmit} aria-label="Reset password">
        <p className="muted dialog-text">They are signed out everywhere and sign in again with the new password. Tell it to them in person or another safe way.</p>
        <PasswordField name="password" label="New password" hint="At least 10 characters." value={password} onChange={setPassword} autoFocus />
        <div className="dialog-actions">
          <button type="button" className="button-ghost dialog-actions-start" onClick={() => setPassword(generatePassword())}>
            Generate one
          </button>
          <button type="button" className="secondary" onClick={close}>
            Cancel
          </button>
          <button type="submit" disabled={isBusy} aria-busy={isBusy}>
            Reset password
          </button>
        </div>
      </form>
    </Dialog>
  );
}
