"use client";

import { type ReactNode, useEffect, useId, useRef, useState } from "react";

interface AccountMenuProps {
  /** What the menu button says to a screen reader (it shows only an icon). */
  label: string;
  children: ReactNode;
}

/**
 * The signed-in header's items. On a wide screen they sit inline and the button is hidden (CSS);
 * on a phone they fold under a menu button, a disclosure: aria-expanded on the button, Escape or a
 * click elsewhere closes it, and Escape gives the focus back to the button.
 */
export function AccountMenu({ label, children }: AccountMenuProps) {
  const [isOpen, setIsOpen] = useState(false);
  const container = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!isOpen) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Escape") return;
      setIsOpen(false);
      button.current?.focus();
    }
    function onPointerDown(event: PointerEvent) {
      if (!container.current?.contains(event.target as Node)) setIsOpen(false);
    }
    function onFocusIn(event: FocusEvent) {
      // Tabbing out of the open menu closes it, as a click elsewhere does.
      if (!container.current?.contains(event.target as Node)) setIsOpen(false);
    }
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("focusin", onFocusIn);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("focusin", onFocusIn);
    };
  }, [isOpen]);

  return (
    <nav ref={container} className="account-menu" aria-label="Your account" data-testid="user-menu" data-open={isOpen || undefined}>
      <button
        ref={button}
        type="button"
        className="button-ghost icon-button account-menu-button"
        aria-expanded={isOpen}
        aria-controls={panelId}
        aria-label={label}
        title={label}
        data-testid="account-menu-button"
        onClick={() => setIsOpen((open) => !open)}
      >
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden="true">
          <path d="M4 7h16M4 12h16M4 17h16" />
        </svg>
      </button>
      {/* Closing after a choice: a link or button inside was used, so the menu has done its job. */}
      <div id={panelId} className="account-menu-items" onClick={(event) => (event.target as HTMLElement).closest("a, button") && setIsOpen(false)}>
        {children}
      </div>
    </nav>
  );
}
