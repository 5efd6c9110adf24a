import type { Metadata } from "next";
import { findCurrentViewer } from "@/src/auth/current-user";
import { listBrowseEntries } from "@/src/browse/browse.service";
import { BrowseIndexPage } from "@/src/browse/components/browse-index-page";
import { getDb } from "@/src/db/client";

export const metadata: Metadata = { title: "Years" };

// /years – every year with a photo this viewer may see, with how many and the newest as its cover.
export default async function YearsPage() {
  const entries = await listBrowseEntries(getDb(), await findCurrentViewer(), "year");
  return <BrowseIndexPage kind="year" entries={entries} />;
}
