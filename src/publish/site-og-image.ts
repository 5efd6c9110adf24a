/**
 * The site's Open Graph image: the collage of its newest public photos, at the one address that
 * follows them (answered by src/publish/og-images.ts). The root layout names it, so every page
 * without an image of its own (home, search, browse) shows it, and no page reads those photos
 * before its head is sent.
 */
export const LATEST_SITE_OG_IMAGE_PATH = "/og/site/home/latest.jpg";
