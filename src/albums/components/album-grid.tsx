"use client";

import Link from "next/link";
import { type CSSProperties, useEffect, useRef } from "react";
import { toPlaceholderUrl } from "@/src/photos/placeholder-image";
import { type AlbumCardData, type AlbumCover, describeAlbumPhotos } from "./album-card-data";

// Cards are two to a row on a phone, up to four or five on a wide screen (see albums.css).
const COVER_SIZES = "(max-width: 40rem) 50vw, (max-width: 64rem) 33vw, 22rem";
const EAGER_CARDS = 4;

/** Albums as cards: the cover (placeholder colour and thumbhash first), the title and how many photos (its sub-albums' too). */
export function AlbumGrid({ albums, label }: { albums: AlbumCardData[]; label: string }) {
  return (
    <ul className="album-grid" aria-label={label}>
      {albums.map((album, index) => (
        <li key={album.id} className="album-card" data-testid="album-card">
          <Link href={`/albums/${album.slug}`} className="album-card-link">
            <AlbumCoverImage cover={album.cover} eager={index < EAGER_CARDS} />
            <span className="album-card-text">
              <span className="album-card-title">{album.title}</span>
              <span className="album-card-count" data-testid="album-card-count">
                {describeAlbumPhotos(album)}
              </span>
            </span>
            {album.badge && <span className="badge album-card-badge">{album.badge}</span>}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The cover, cropped to the card's shape; an empty frame with an icon for an album without photos. */
export function AlbumCoverImage({ cover, eager = false, sizes = COVER_SIZES }: { cover: AlbumCover | null; eager?: boolean; sizes?: string }) {
  const frame = useRef<HTMLSpanElement>(null);
  const image = useRef<HTMLImageElement>(null);

  // The blurred preview is decoded after hydration, and only while the image is still on its way.
  useEffect(() => {
    if (!frame.current || !cover || image.current?.complete) return;
    const placeholder = toPlaceholderUrl(cover.thumbhash);
    if (placeholder) frame.current.style.backgroundImage = `url(${placeholder})`;
  }, [cover]);

  if (!cover) {
    return (
      <span className="album-cover album-cover-empty" aria-hidden="true">
        <svg viewBox="0 0 24 24" focusable="false">
          <rect x="3.5" y="5" width="17" height="14" rx="2" />
          <path d="M3.5 15.5l4.5-4.5 4 4 3-3 5.5 5.5" />
          <circle cx="15.5" cy="9.5" r="1.5" />
        </svg>
      </span>
    );
  }
  const style = { backgroundColor: cover.color ?? undefined } as CSSProperties;
  return (
    <span ref={frame} className="album-cover" style={style}>
      <picture>
        {cover.avif && <source type="image/avif" srcSet={cover.avif} sizes={sizes} />}
        {/* Our own variants, never /_next/image: private ones must not go through it. Decorative:
            the album's title beside it names the link. */}
        <img ref={image} src={cover.src} srcSet={cover.jpeg} sizes={sizes} alt="" loading={eager ? "eager" : "lazy"} decoding="async" />
      </picture>
    </span>
  );
}
