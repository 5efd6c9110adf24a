"use client";

import { useSyncExternalStore } from "react";
import { isThemeChoice, type ThemeChoice } from "@/src/ui/theme/theme-choice";

function subscribe(listener: () => void): () => void {
  const observer = new MutationObserver(listener);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => observer.disconnect();
}

function readChoice(): ThemeChoice | "auto" {
  const chosen = document.documentElement.dataset.theme;
  return isThemeChoice(chosen) ? chosen : "auto";
}

/**
 * The theme for a widget that draws its own colours (Uppy): the reader's choice from the theme
 * toggle (data-theme on <html>), else "auto", which follows the system like the page does.
 */
export function useChosenTheme(): ThemeChoice | "auto" {
  return useSyncExternalStore(subscribe, readChoice, () => "auto");
}
