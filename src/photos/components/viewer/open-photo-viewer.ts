import PhotoSwipe from "photoswipe";
import "photoswipe/style.css";
import { addLiveSlides } from "./live-slide";
import { addVideoSlides } from "./video-slide";
import { addViewerChrome } from "./viewer-chrome";
import type { LoadViewerInfo, LoadViewerNeighbours, LoadViewerPosition, ViewerNeighbours, ViewerSlide } from "./viewer-slide";

// Loaded only when a reader opens the viewer (a dynamic import() from PhotoViewerStage), so
// PhotoSwipe and its styles are never part of the photo page's first load.

interface OpenPhotoViewerOptions {
  current: ViewerSlide;
  neighbours: ViewerNeighbours;
  loadNeighbours: LoadViewerNeighbours;
  /** The opening photo's place in the order walked, for the counter (asked for together with the neighbours). */
  position: ReturnType<LoadViewerPosition>;
  loadInfo: LoadViewerInfo;
  /** The image on the page, which the viewer zooms out of and back into. */
  thumbnail: HTMLImageElement | null;
  /** After the viewer has gone and history is back on the page's entry: the photo shown last. */
  onClosed: (shownId: string) => void;
  /** Kept on the address as it follows the photo shown ("?album=<slug>" when moving through an album). */
  pageQuery?: string;
  /** Where a photo's page is, before its id: "/p/" in the gallery, "/s/<key>/p/" on a share link. */
  photoPath?: string;
}

/** How near the end of what it has the viewer asks for more older photos. */
const LOAD_MORE_WITHIN = 3;

/**
 * Opens the full-screen viewer on `current`, with its neighbours either side (newer to the left,
 * older to the right, as "Previous" and "Next" on the page).
 *
 * History: opening pushes one entry, so the browser's Back closes the viewer instead of leaving
 * the page; while it is open the address follows the photo shown (replaceState, so a reload or a
 * copied address lands on that photo); closing by any means drops that entry again and hands the
 * shown photo to `onClosed`, which navigates the page to it.
 */
export function openPhotoViewer({
  current,
  neighbours,
  loadNeighbours,
  position,
  loadInfo,
  thumbnail,
  onClosed,
  pageQuery = "",
  photoPath = "/p/",
}: OpenPhotoViewerOptions): void {
  // `element`: the zoom-in animation grows out of the photo on the page (and back into it on close).
  const opening: ViewerSlide & { element?: HTMLElement } = { ...current, element: thumbnail ?? undefined };
  const slides: ViewerSlide[] = [...neighbours.newer.toReversed(), opening, ...neighbours.older];
  const startIndex = neighbours.newer.length;
  let isLoadingOlder = false;
  let hasAllOlder = neighbours.older.length === 0;
  // No zoom out of the page and back for a reader who asked for less motion.
  const prefersLessMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  const pswp = new PhotoSwipe({
    dataSource: slides,
    index: startIndex,
    loop: false,
    counter: false,
    bgOpacity: 1,
    wheelToZoom: true,
    showHideAnimationType: prefersLessMotion ? "none" : thumbnail ? "zoom" : "fade",
    returnFocus: false,
    // Dark in both themes (tokens.css): the photo alone has colour.
    mainClass: "photo-viewer color-scheme-dark",
    closeTitle: "Close (Escape)",
    zoomTitle: "Zoom (Z)",
    arrowPrevTitle: "Previous photo",
    arrowNextTitle: "Next photo",
    errorMsg: "This photo could not be loaded.",
  });

  async function loadMoreOlder(): Promise<void> {
    const last = slides.at(-1);
    if (!last || isLoadingOlder || hasAllOlder) return;
    isLoadingOlder = true;
    try {
      const known = new Set(slides.map((slide) => slide.id));
      const { older } = await loadNeighbours(last.id);
      const fresh = older.filter((slide) => !known.has(slide.id));
      if (fresh.length === 0) hasAllOlder = true;
      const firstNew = slides.length;
      slides.push(...fresh);
      // PhotoSwipe reads the array's length each time; the slide just past the old end may already
      // be laid out empty, so fill it now.
      if (fresh.length > 0 && !pswp.isDestroying) pswp.refreshSlideContent(firstNew);
    } catch {
      hasAllOlder = true;
    } finally {
      isLoadingOlder = false;
    }
  }

  addViewerChrome(pswp, {
    position,
    startIndex,
    loadInfo,
    advance() {
      // A reader looking closely at a zoomed photo has taken over: the show stops there.
      const slide = pswp.currSlide;
      if (slide && slide.currZoomLevel > slide.zoomLevels.initial) return "end";
      if (pswp.currIndex < slides.length - 1) {
        pswp.next();
        return "moved";
      }
      return isLoadingOlder ? "waiting" : "end";
    },
  });

  const shownSlide = (): ViewerSlide => (pswp.currSlide?.data as ViewerSlide | undefined) ?? current;

  pswp.on("change", () => {
    const shown = shownSlide();
    const address = `${photoPath}${shown.id}${pageQuery}`;
    if (window.location.pathname + window.location.search !== address) window.history.replaceState(window.history.state, "", address);
    if (pswp.currIndex >= slides.length - 1 - LOAD_MORE_WITHIN) void loadMoreOlder();
  });

  // Back while the viewer is open: the browser has already left our entry, so only close.
  let isClosedByBack = false;
  function handleBack(): void {
    isClosedByBack = true;
    pswp.close();
  }

  pswp.on("destroy", () => {
    window.removeEventListener("popstate", handleBack);
    const shownId = shownSlide().id;
    if (isClosedByBack) {
      onClosed(shownId);
      return;
    }
    // Leave our entry; once the browser is back on the page's own, the page follows the photo.
    window.addEventListener("popstate", () => onClosed(shownId), { once: true });
    window.history.back();
  });

  addVideoSlides(pswp);
  addLiveSlides(pswp);

  pswp.on("bindEvents", () => {
    pswp.element?.setAttribute("aria-label", "Photo viewer");
  });

  // The same state object keeps the framework's own bookkeeping in the new entry; only the
  // entry's existence matters to us.
  window.history.pushState(window.history.state, "", window.location.href);
  window.addEventListener("popstate", handleBack);
  pswp.init();
}
