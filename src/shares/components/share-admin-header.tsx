import Link from "next/link";
import type { ShareSummary } from "../shares-owner.types";
import { CopyLinkButton } from "./copy-link-button";
import { ShareStateBadge } from "./share-state-badge";

interface ShareAdminHeaderProps {
  share: Pick<ShareSummary, "id" | "url" | "state" | "title">;
  /** Which tab is this page. */
  current: "settings" | "selections";
}

/**
 * The top of a link's admin pages: back to all links, the link itself with a copy button, its state,
 * and the two tabs: "Settings & activity" (/admin/shares/[id]) and "Selections" (…/selections).
 */
export function ShareAdminHeader({ share, current }: ShareAdminHeaderProps) {
  const base = `/admin/shares/${encodeURIComponent(share.id)}`;
  const tabs = [
    { key: "settings", href: base, label: "Settings & activity" },
    { key: "selections", href: `${base}/selections`, label: "Selections" },
  ] as const;
  return (
    <div className="share-admin-header">
      <p className="share-back">
        <Link href="/admin/shares">← All share links</Link>
      </p>
      <div className="share-link-line">
        <ShareStateBadge state={share.state} />
        {share.state === "revoked" ? (
          <code className="share-url share-url-dead">{share.url}</code>
        ) : (
          <>
            <code className="share-url">{share.url}</code>
            <CopyLinkButton url={share.url} />
          </>
        )}
      </div>
      <nav className="share-tabs" aria-label="This link">
        {tabs.map((tab) => (
          // No prefetch: the selections page is heavy and seldom the next step.
          <Link key={tab.key} href={tab.href} className="share-tab" aria-current={tab.key === current ? "page" : undefined} prefetch={false}>
            {tab.label}
          </Link>
        ))}
      </nav>
    </div>
  );
}
