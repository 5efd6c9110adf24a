/**
 * The site's name and one-line description until an admin sets their own in /admin/settings
 * (src/settings/site-settings.service.ts reads the settings and falls back to these).
 */
export const SITE_TITLE = "Contact Sheet";
export const SITE_DESCRIPTION = "A self-hosted photo gallery and portfolio.";

/**
 * The browser chrome's colour, the page background of each theme (--color-bg in
 * app/styles/tokens.css; metadata cannot read CSS variables, so the two values are repeated here).
 */
export const THEME_COLOURS = { light: "#fbfbfa", dark: "#0e0e0f" } as const;
