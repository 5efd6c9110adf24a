"use client";

import { type ChangeEvent, useId, useState } from "react";

interface PasswordFieldProps {
  name: string;
  label: string;
  hint?: string;
  /** Controlled value; leave out for a plain form field read with FormData. */
  value?: string;
  onChange?: (value: string) => void;
  minLength?: number;
  autoFocus?: boolean;
}

/**
 * A new-password field, hidden by default, with a Show/Hide button beside it: the reader decides
 * when a password appears in clear (someone may be looking over their shoulder).
 */
export function PasswordField({ name, label, hint, value, onChange, minLength = 10, autoFocus }: PasswordFieldProps) {
  const [isShown, setIsShown] = useState(false);
  const inputId = useId();
  const hintId = useId();
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <div className="password-input">
        <input
          id={inputId}
          name={name}
          type={isShown ? "text" : "password"}
          required
          minLength={minLength}
          maxLength={256}
          autoComplete="new-password"
          spellCheck={false}
          autoCapitalize="off"
          autoFocus={autoFocus}
          aria-describedby={hint ? hintId : undefined}
          {...(value === undefined ? {} : { value, onChange: (event: ChangeEvent<HTMLInputElement>) => onChange?.(event.target.value) })}
        />
        <button
          type="button"
          className="secondary password-toggle"
          aria-pressed={isShown}
          aria-controls={inputId}
          aria-label={isShown ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          onClick={() => setIsShown((shown) => !shown)}
        >
          {isShown ? "Hide" : "Show"}
        </button>
      </div>
      {hint && (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      )}
    </div>
  );
}
