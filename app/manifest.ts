import type { MetadataRoute } from "next";
import { getDb } from "@/src/db/client";
import { getSiteIdentity } from "@/src/settings/site-settings.service";
import { THEME_COLOURS } from "@/src/ui/site-identity";

// The name is the admin's setting, read when asked, never at build time.
export const dynamic = "force-dynamic";

// /manifest.webmanifest – lets a phone add the gallery to its home screen as an app of its own.
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
    icons: [
      { src: "/icon.svg", type: "image/svg+xml", sizes: "any" },
      { src: "/icon-192.png", type: "image/png", sizes: "192x192" },
      { src: "/icon-512.png", type: "image/png", sizes: "512x512" },
    ],
  };
}
