"use client";

import { useSyncExternalStore } from "react";
import { isThemeChoice, THEME_STORAGE_KEY, type ThemeChoice } from "./theme-choice";

const listeners = new Set<() => void>();
const DARK_QUERY = "(prefers-color-scheme: dark)";

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const media = window.matchMedia(DARK_QUERY);
  media.addEventListener("change", listener);
  return () => {
    listeners.delete(listener);
    media.removeEventListener("change", listener);
  };
}

/** The theme the page shows now: the reader's choice, else the system's. */
function readShownTheme(): ThemeChoice {
  const chosen = document.documentElement.dataset.theme;
  if (isThemeChoice(chosen)) return chosen;
  return window.matchMedia(DARK_QUERY).matches ? "dark" : "light";
}

function chooseTheme(theme: ThemeChoice) {
  document.documentElement.dataset.theme = theme;
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage may be off (private mode): the choice still holds for this page.
  }
  for (const listener of listeners) listener();
}

/**
 * Switches between the light and the dark theme and remembers the choice. Both icons are in the
 * markup and CSS shows the right one, so the server's HTML is right before this script runs.
 */
export function ThemeToggle() {
  // null on the server and during hydration: the label is settled once the browser can be asked.
  const shown = useSyncExternalStore(subscribe, readShownTheme, () => null);
  const next: ThemeChoice = shown === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      className="button-ghost icon-button theme-toggle"
      onClick={() => chooseTheme(shown === null ? (readShownTheme() === "dark" ? "light" : "dark") : next)}
      aria-label={shown === null ? "Switch theme" : `Use the ${next} theme`}
      title={shown === null ? "Switch theme" : `Use the ${next} theme`}
      data-testid="theme-toggle"
    >
      {/* A moon in the light theme (go dark), a sun in the dark one (go light). */}
      <svg className="theme-icon-light" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
        <path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5Z" strokeLinejoin="round" />
      </svg>
      <svg className="theme-icon-dark" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" strokeLinecap="round" />
      </svg>
    </button>
  );
}
