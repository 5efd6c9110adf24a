import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/src/ui/providers";
import { SiteHeader } from "@/src/ui/site-header";
import "./globals.css";

// Every page depends on who is asking and on settings read at run time, never at build time.
export const dynamic = "force-dynamic";

const SITE_TITLE = "Contact Sheet";

export const metadata: Metadata = {
  title: { default: SITE_TITLE, template: `%s · ${SITE_TITLE}` },
  description: "A self-hosted photo gallery and portfolio.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <SiteHeader siteTitle={SITE_TITLE} />
          <main className="site-main">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
