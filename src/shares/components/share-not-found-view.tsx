"use client";

import Link from "next/link";
import { useShareFrame } from "./share-frame";

/** A share's 404: the photo is not among the link's; the way back is the link's gallery, never the site's. */
export function ShareNotFoundView() {
  const frame = useShareFrame();
  return (
    <section className="share-refusal card" aria-labelledby="share-missing-title" data-testid="share-not-found">
      {frame?.shareTitle && frame.access === "granted" && <p className="share-refusal-share">{frame.shareTitle}</p>}
      <h1 id="share-missing-title">This photo is not in the shared set</h1>
      <p className="share-refusal-body">It may have been taken out of it, or the address is not complete.</p>
      {frame?.access === "granted" && (
        <p>
          <Link className="button secondary" href={`/s/${frame.key}`}>
            Back to the photos
          </Link>
        </p>
      )}
    </section>
  );
}
