import { redirect } from "next/navigation";
import { getDb } from "@/src/db/client";
import { ShareGallery } from "@/src/shares/components/share-gallery";
import { getShareSummary, listSharePhotos, SHARE_PAGE_SIZE } from "@/src/shares/share-gallery.service";
import { sharePath } from "@/src/shares/share-key";
import { toShareTiles } from "@/src/shares/share-tiles";
import { requireSharePage } from "./share-page-access";

interface SharePageProps {
  params: Promise<{ key: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

function describePhotoCount(count: number): string {
  return count === 1 ? "1 photo" : `${count.toLocaleString("en-GB")} photos`;
}

// /s/[key] – a share link's gallery: its title and message, its photos in the site's grid, and
// "Download all" when the link offers the ZIP. The password form and every refusal are its 401.
export default async function SharePage({ params, searchParams }: SharePageProps) {
  const { key } = await params;
  const query = await searchParams;
  const share = await requireSharePage(key);
  // Just admitted: the address loses its mark (and a reload counts nothing).
  if (query.entered !== undefined || query.password !== undefined) redirect(sharePath(key));
  const db = getDb();
  const [summary, firstPage] = await Promise.all([getShareSummary(db, share), listSharePhotos(db, share, { limit: SHARE_PAGE_SIZE })]);
  return (
    <article className="share-page" data-testid="share-page">
      <header className="share-header">
        <h1 data-testid="share-title">{summary.title}</h1>
        {summary.message && <p className="share-message">{summary.message}</p>}
        <div className="share-meta">
          <p className="share-count" data-testid="share-photo-count">
            {describePhotoCount(summary.photoCount)}
          </p>
          {summary.zipUrl && summary.photoCount > 0 && (
            <a className="button secondary share-download-all" href={summary.zipUrl} download data-testid="share-download-all">
              <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
              </svg>
              <span>Download all</span>
            </a>
          )}
        </div>
      </header>
      {firstPage.photos.length > 0 ? (
        <section className="gallery share-photos" aria-label={`Photos in ${summary.title}`}>
          <ShareGallery shareKey={key} firstTiles={toShareTiles(firstPage.photos)} firstCursor={firstPage.nextCursor} allowsPicks={summary.allowsPicks} />
        </section>
      ) : (
        <p className="share-empty">There are no photos here right now.</p>
      )}
    </article>
  );
}
