"use client";

import { useRouter } from "next/navigation";
import { type ReactNode, useEffect, useId, useRef } from "react";
import toast from "react-hot-toast";
import type { openPhotoViewer } from "./open-photo-viewer";
import type { LoadViewerInfo, LoadViewerNeighbours, LoadViewerPosition, ViewerNeighbours, ViewerSlide } from "./viewer-slide";

/**
 * The photo whose page should take the focus when it appears: the viewer closed on it, and the
 * page for a different photo is a new page (React mounts it afresh), so the focus is handed over
 * here rather than kept.
 */
let focusOnArrival: string | null = null;

type Prepared = Promise<[{ openPhotoViewer: typeof openPhotoViewer }, ViewerNeighbours]>;

interface PhotoViewerStageProps {
  /** The page's photo as the viewer shows it. */
  slide: ViewerSlide;
  loadNeighbours: LoadViewerNeighbours;
  /** The counter's numbers: the photo's place in the same order as the neighbours. */
  loadPosition: LoadViewerPosition;
  /** The info panel's card, asked for when the reader opens the panel. */
  loadInfo: LoadViewerInfo;
  /** The photo as the page shows it (a <picture>); the button wraps it. */
  children: ReactNode;
  /** The page's query, kept as the viewer moves ("?album=<slug>": the album's order). */
  pageQuery?: string;
  /** Where a photo's page is, before its id: "/p/" in the gallery, "/s/<key>/p/" on a share link. */
  photoPath?: string;
}

/**
 * The photo on its page as a button: click, Enter or Space opens the full-screen viewer. PhotoSwipe
 * and the neighbours are fetched on the first sign of intent (pointer over, focus), so the click
 * opens at once, and never before: they are not part of the page's first load.
 */
export function PhotoViewerStage({ slide, loadNeighbours, loadPosition, loadInfo, children, pageQuery = "", photoPath = "/p/" }: PhotoViewerStageProps) {
  const router = useRouter();
  const button = useRef<HTMLButtonElement>(null);
  // Keyed by photo and query: the same page may stay mounted from /p/x?album=a to /p/x, whose neighbours differ.
  const prepared = useRef<{ key: string; promise: Prepared; position: ReturnType<LoadViewerPosition> } | null>(null);
  const isOpen = useRef(false);
  const hintId = useId();

  useEffect(() => {
    if (focusOnArrival !== slide.id) return;
    focusOnArrival = null;
    button.current?.focus({ preventScroll: true });
  }, [slide.id]);

  function prepare(): Prepared {
    const key = `${slide.id}${pageQuery}`;
    if (prepared.current?.key !== key) {
      const promise: Prepared = Promise.all([import("./open-photo-viewer"), loadNeighbours(slide.id)]);
      // A failed fetch is forgotten, so the next attempt tries again.
      promise.catch(() => {
        if (prepared.current?.promise === promise) prepared.current = null;
      });
      // The counter does not hold the viewer up: it shows once its numbers arrive (none if they fail).
      const position = loadPosition(slide.id).catch(() => null);
      prepared.current = { key, promise, position };
    }
    return prepared.current.promise;
  }

  async function open(): Promise<void> {
    if (isOpen.current) return;
    isOpen.current = true;
    try {
      const [{ openPhotoViewer }, neighbours] = await prepare();
      const position = prepared.current?.position ?? Promise.resolve(null);
      const image = button.current?.querySelector("img") ?? null;
      openPhotoViewer({
        // The size already on screen shows at once while the larger ones load.
        current: { ...slide, msrc: image?.currentSrc || slide.msrc },
        neighbours,
        loadNeighbours,
        position,
        loadInfo,
        thumbnail: image,
        pageQuery,
        photoPath,
        onClosed(shownId) {
          isOpen.current = false;
          if (shownId === slide.id) {
            button.current?.focus({ preventScroll: true });
            return;
          }
          focusOnArrival = shownId;
          router.replace(`${photoPath}${shownId}${pageQuery}`, { scroll: false });
        },
      });
    } catch {
      isOpen.current = false;
      toast.error("The viewer could not open. Try again.");
    }
  }

  return (
    <>
      <button
        ref={button}
        type="button"
        className="photo-stage-button"
        aria-haspopup="dialog"
        aria-describedby={hintId}
        onPointerEnter={() => void prepare().catch(() => undefined)}
        onFocus={() => void prepare().catch(() => undefined)}
        onClick={() => void open()}
      >
        {children}
        <svg className="photo-stage-expand" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
        </svg>
      </button>
      <span id={hintId} hidden>
        Opens the photo full screen, with zoom
      </span>
    </>
  );
}
