/** The reader's own choice of theme, remembered in this browser; without one the system's is used. */
export type ThemeChoice = "light" | "dark";

export const THEME_STORAGE_KEY = "contact-sheet-theme";

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return value === "light" || value === "dark";
}

/**
 * Runs in <head> before the first paint, so a reader who chose a theme never sees the other one
 * flash. Kept tiny and free of imports: it is inlined as a string.
 */
export const THEME_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;
