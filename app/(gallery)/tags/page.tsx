import type { Metadata } from "next";
import Link from "next/link";
import { findCurrentViewer } from "@/src/auth/current-user";
import { BrowseNav } from "@/src/browse/components/browse-nav";
import { getDb } from "@/src/db/client";
import { listTagsForViewer } from "@/src/tags/tags.service";

export const metadata: Metadata = { title: "Tags" };

// /tags – every tag on photos this viewer may see, with how many; a tag nobody else may see is not here.
export default async function TagsPage() {
  const tags = await listTagsForViewer(getDb(), await findCurrentViewer());
  return (
    <section className="page tags-page" aria-labelledby="tags-title">
      <BrowseNav current="/tags" />
      <header className="tags-header">
        <h1 id="tags-title">Tags</h1>
        <p className="muted">{tags.length === 0 ? "No tagged photos to show yet." : `${tags.length} ${tags.length === 1 ? "tag" : "tags"}, each with how many photos have it.`}</p>
      </header>
      {tags.length > 0 && (
        <ul className="tag-cloud" data-testid="tag-list">
          {tags.map((tag) => (
            <li key={tag.id}>
              <Link className="tag-pill" href={tag.path}>
                <span className="tag-pill-name">{tag.name}</span>
                <span className="tag-pill-count">
                  {tag.count}
                  <span className="visually-hidden"> {tag.count === 1 ? "photo" : "photos"}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
