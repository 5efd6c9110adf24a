import type { MetadataRoute } from "next";
import { SITE_DESCRIPTION, SITE_TITLE, THEME_COLOURS } from "@/src/ui/site-identity";

// /manifest.webmanifest – lets a phone add the gallery to its home screen as an app of its own.
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: SITE_TITLE,
    short_name: SITE_TITLE,
    description: SITE_DESCRIPTION,
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
