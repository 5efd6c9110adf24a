import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/src/ui/providers";
import { SiteHeader } from "@/src/ui/site-header";
import { THEME_SCRIPT } from "@/src/ui/theme/theme-choice";
import "./styles";

// Every page depends on who is asking and on settings read at run time, never at build time.
export const dynamic = "force-dynamic";

const SITE_TITLE = "Contact Sheet";

export const metadata: Metadata = {
  title: { default: SITE_TITLE, template: `%s · ${SITE_TITLE}` },
  description: "A self-hosted photo gallery and portfolio.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
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
          <SiteHeader siteTitle={SITE_TITLE} />
          <main id="main" className="site-main" tabIndex={-1}>
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
