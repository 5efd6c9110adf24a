import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { requirePageUser } from "@/src/auth/page-guard";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import type { SelectionsResponse } from "@/src/shares/proofing-api.schemas";
import { listShareSelections, markShareSelectionsSeenByOwner } from "@/src/shares/proofing.service";
import { SelectionsView } from "@/src/shares/components/selections/selections-view";
import { ShareAdminHeader } from "@/src/shares/components/share-admin-header";
import { getShare } from "@/src/shares/shares.service";
import type { ShareSummary } from "@/src/shares/shares-owner.types";
import { AdminPage } from "@/src/ui/admin-page";
import { identifierFromSegment } from "@/src/http/route-segment";

interface SelectionsPageProps {
  params: Promise<{ id: string }>;
}

// Memoised per request: the title and the page read the selections once. Not there, or not this
// editor's share: the 404 page (an admin sees every share's).
const findSelections = cache(async (id: string): Promise<{ selections: SelectionsResponse; share: ShareSummary }> => {
  const user = await requirePageUser("editor", `/admin/shares/${encodeURIComponent(id)}/selections`);
  const shareId = identifierFromSegment(id) ?? notFound();
  try {
    const [selections, share] = await Promise.all([listShareSelections(getDb(), user, shareId), getShare(getDb(), user, shareId)]);
    return { selections, share };
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: SelectionsPageProps): Promise<Metadata> {
  const { selections } = await findSelections((await params).id);
  return { title: `Selections: ${selections.share.title}` };
}

// /admin/shares/[id]/selections – each visitor's picks and comments, the exports, the lock.
// Opening it marks the selections sent so far as seen (the dashboard's "New selections").
export default async function ShareSelectionsPage({ params }: SelectionsPageProps) {
  const { id } = await params;
  const user = await requirePageUser("editor", `/admin/shares/${encodeURIComponent(id)}/selections`);
  const { selections, share } = await findSelections(id);
  // Read first, then marked: this view still shows which ones are new.
  await markShareSelectionsSeenByOwner(getDb(), user, id, new Date());
  return (
    <AdminPage
      role={user.role}
      title={selections.share.title}
      intro={selections.share.pickLimit === null ? "No pick limit." : `Each visitor may pick up to ${selections.share.pickLimit} photos.`}
    >
      <ShareAdminHeader share={share} current="selections" />
      <SelectionsView selections={selections} />
    </AdminPage>
  );
}
