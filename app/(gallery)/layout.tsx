import Script from "next/script";
import type { ReactNode } from "react";
import { getEnv } from "@/src/config/env";

// Public pages only: the optional analytics script never loads on admin, sign-in or setup pages.
export default function GalleryLayout({ children }: { children: ReactNode }) {
  const analyticsScriptUrl = getEnv().ANALYTICS_SCRIPT_URL;
  return (
    <>
      {children}
      {analyticsScriptUrl && <Script src={analyticsScriptUrl} strategy="afterInteractive" data-testid="analytics-script" />}
    </>
  );
}
