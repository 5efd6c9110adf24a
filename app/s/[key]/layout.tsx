import type { Metadata } from "next";
import type { ReactNode } from "react";
import { getDb } from "@/src/db/client";
import { getSiteIdentity } from "@/src/settings/site-settings.service";
import { ShareFrameProvider } from "@/src/shares/components/share-frame";
import { ProofingProvider, SelectionBar } from "@/src/shares/components/proofing";
import { findSharePageAccess } from "./share-page-access";

interface ShareLayoutProps {
  params: Promise<{ key: string }>;
  children: ReactNode;
}

// Never indexed, never followed, never cached: the key is a secret (next.config.ts also sends X-Robots-Tag).
export async function generateMetadata({ params }: { params: Promise<{ key: string }> }): Promise<Metadata> {
  const access = await findSharePageAccess((await params).key);
  return {
    title: access.share ? access.share.title : "Shared photos",
    robots: { index: false, follow: false, nocache: true, googleBot: { index: false, follow: false } },
    openGraph: null,
    referrer: "same-origin",
  };
}

// /s/[key]/… – every page of a share link: what the gate says for this browser, for the pages and
// for the branded 401 page below (app/s/[key]/unauthorized.tsx), and proofing's place around them.
export default async function ShareLayout({ params, children }: ShareLayoutProps) {
  const { key } = await params;
  const [access, { siteTitle }] = await Promise.all([findSharePageAccess(key), getSiteIdentity(getDb())]);
  const share = access.share ?? null;
  const frame = {
    key,
    siteTitle,
    shareTitle: share?.title ?? null,
    access: access.kind,
    reason: access.kind === "refused" ? access.reason : null,
  };
  return (
    <ShareFrameProvider frame={frame}>
      <div className="share-frame">
        {access.kind === "granted" && access.share.allow_picks === 1 ? (
          <ProofingProvider shareKey={key}>
            {children}
            <SelectionBar />
          </ProofingProvider>
        ) : (
          children
        )}
      </div>
    </ShareFrameProvider>
  );
}
