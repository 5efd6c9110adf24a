import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { getEnv } from "@/src/config/env";
import { Providers } from "@/src/ui/providers";
import { SiteHeader } from "@/src/ui/site-header";
import { THEME_SCRIPT } from "@/src/ui/theme/theme-choice";
import { getDb } from "@/src/db/client";
import { LATEST_SITE_OG_IMAGE_PATH } from "@/src/publish/site-og-image";
import { getSiteIdentity } from "@/src/settings/site-settings.service";
import { THEME_COLOURS } from "@/src/ui/site-identity";
import "./styles";

// Every page depends on who is asking and on settings read at run time, never at build time.
export const dynamic = "force-dynamic";

// Read per request (this layout is dynamic), so NEXTAUTH_URL is the running server's, not the
// build machine's: every og:image and canonical URL is absolute on the real host.
// The site's title and description are the admin's settings (read from memory, dropped on change).
export async function generateMetadata(): Promise<Metadata> {
  const { siteTitle, siteDescription } = await getSiteIdentity(getDb());
  return {
    metadataBase: new URL(getEnv().NEXTAUTH_URL),
    title: { default: siteTitle, template: `%s · ${siteTitle}` },
    description: siteDescription || undefined,
    applicationName: siteTitle,
    // Pages that publish something (photos, albums, tags) or must not (private, shares) replace all of it.
    openGraph: { type: "website", siteName: siteTitle, title: siteTitle, description: siteDescription, images: LATEST_SITE_OG_IMAGE_PATH },
    // No twitter:image: X reads og:image, and Next.js would otherwise repeat it (HTML and RSC payload).
    twitter: { card: "summary_large_image", images: [] },
  };
}

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: THEME_COLOURS.light },
    { media: "(prefers-color-scheme: dark)", color: THEME_COLOURS.dark },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { siteTitle } = await getSiteIdentity(getDb());
  return (
    // The theme script may set data-theme on <html> before React hydrates it.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Providers>
          <SiteHeader siteTitle={siteTitle} />
          <main id="main" className="site-main" tabIndex={-1}>
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
