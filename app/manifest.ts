import type { MetadataRoute } from "next";
import { getDb } from "@/src/db/client";
import { getSiteIdentity } from "@/src/settings/site-settings.service";
import { THEME_COLOURS } from "@/src/ui/site-identity";
import { ACCEPTED_FILE_TYPES } from "@/src/uploads/accepted-file-types";

// The name is the admin's setting, read when asked, never at build time.
export const dynamic = "force-dynamic";

// /manifest.webmanifest – lets a phone add the gallery to its home screen as an app of its own, and
// offers it in the phone's share sheet: shared photos go to the upload page (for editors; the
// upload page's worker takes the post, see public/upload-share-worker.js).
export default async function manifest(): Promise<MetadataRoute.Manifest> {
  const { siteTitle, siteDescription } = await getSiteIdentity(getDb());
  return {
    name: siteTitle,
    short_name: siteTitle,
    description: siteDescription,
    start_url: "/",
    display: "standalone",
    background_color: THEME_COLOURS.dark,
    theme_color: THEME_COLOURS.dark,
    share_target: {
      action: "/api/upload/share",
      method: "POST",
      enctype: "multipart/form-data",
      params: { files: [{ name: "photos", accept: ACCEPTED_FILE_TYPES }] },
    },
    icons: [
      { src: "/icon.svg", type: "image/svg+xml", sizes: "any" },
      { src: "/icon-192.png", type: "image/png", sizes: "192x192" },
      { src: "/icon-512.png", type: "image/png", sizes: "512x512" },
    ],
  };
}
