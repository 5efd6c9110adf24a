import type PhotoSwipe from "photoswipe";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import type { PhotoViewerInfo } from "../../photos.service";
import { ViewerInfoPanel, type ViewerInfoState } from "./viewer-info-panel";
import { createSlideshow, SLIDESHOW_INTERVAL_MS, type SlideshowStep } from "./viewer-slideshow";
import type { LoadViewerInfo, LoadViewerPosition, ViewerSlide } from "./viewer-slide";
import { toggleShownVideo } from "./video-slide";

interface ViewerChromeOptions {
  /** Where the opening photo (slide `startIndex`) stands in the whole order; null: no counter. */
  position: ReturnType<LoadViewerPosition>;
  startIndex: number;
  loadInfo: LoadViewerInfo;
  /** One step of the slideshow: the next photo, if there is one. */
  advance: () => SlideshowStep;
}

/** Wider than this, the info panel sits beside the photo; narrower, it covers the lower part. */
const PANEL_BESIDE_MIN_WIDTH = 720;
const PANEL_WIDTH = 340;
const TOP_BAR_HEIGHT = 60;
const CAPTION_HEIGHT = 76;

const PLAY_ICON = '<svg class="pswp__icn" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true"><path d="M12 9.5v13l10.5-6.5z"/></svg>';
const PAUSE_ICON = '<svg class="pswp__icn" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true"><path d="M11 9.5h3.5v13H11zM17.5 9.5H21v13h-3.5z"/></svg>';
const INFO_ICON =
  '<svg class="pswp__icn" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true"><path fill-rule="evenodd" d="M16 6.5a9.5 9.5 0 1 1 0 19 9.5 9.5 0 0 1 0-19zm0 2a7.5 7.5 0 1 0 0 15 7.5 7.5 0 0 0 0-15zM14.8 14.5h2.4v6.5h-2.4zM16 10.6a1.45 1.45 0 1 1 0 2.9 1.45 1.45 0 0 1 0-2.9z"/></svg>';

/** Keys a focused control answers itself: Space there presses the control, not the slideshow. */
function isControl(target: EventTarget | null): boolean {
  // A focused <video> answers Space with its own controls.
  return target instanceof Element && target.closest("button, a, input, select, textarea, video") !== null;
}

/**
 * Everything the full-screen viewer shows around the photo: the counter ("3 / 24", "Photo 3 of 24"
 * to a screen reader), the caption (title and caption as text), the info panel (the photo page's
 * EXIF card, fetched when opened) and the slideshow with its play/pause button (K or Space; any move
 * the reader makes pauses it). Registered before `init`.
 */
export function addViewerChrome(pswp: PhotoSwipe, { position, startIndex, loadInfo, advance }: ViewerChromeOptions): void {
  const shown = (): ViewerSlide | undefined => pswp.currSlide?.data as ViewerSlide | undefined;
  let isInfoOpen = false;
  let isStepOfShow = false;
  let counter: HTMLElement | undefined;
  let playButton: HTMLElement | undefined;
  let infoButton: HTMLElement | undefined;
  let progress: HTMLElement | undefined;

  const slideshow = createSlideshow({
    advance: () => {
      isStepOfShow = true;
      try {
        const step = advance();
        if (step === "moved") restartProgress();
        return step;
      } finally {
        isStepOfShow = false;
      }
    },
    onPlayingChange(isPlaying) {
      const label = isPlaying ? "Pause slideshow (K)" : "Play slideshow (K)";
      if (playButton) {
        playButton.innerHTML = isPlaying ? PAUSE_ICON : PLAY_ICON;
        playButton.setAttribute("aria-label", label);
        playButton.title = label;
        playButton.classList.toggle("is-playing", isPlaying);
      }
      // Announcing "Photo 4 of 24" every few seconds would drown out everything else.
      counter?.setAttribute("aria-live", isPlaying ? "off" : "polite");
      pswp.element?.classList.toggle("viewer-is-playing", isPlaying);
      if (isPlaying) restartProgress();
    },
  });

  function restartProgress(): void {
    if (!progress) return;
    progress.style.animation = "none";
    void progress.offsetWidth;
    progress.style.animation = "";
  }

  // The counter: the opening photo's place, then one up or down per slide moved.
  let opening: { index: number; total: number } | null = null;
  function updateCounter(): void {
    if (!counter) return;
    counter.hidden = opening === null;
    if (!opening) return;
    const index = Math.min(Math.max(opening.index + pswp.currIndex - startIndex, 1), opening.total);
    const visible = counter.firstElementChild as HTMLElement;
    const spoken = counter.lastElementChild as HTMLElement;
    visible.textContent = `${index} / ${opening.total}`;
    spoken.textContent = `Photo ${index} of ${opening.total}`;
  }
  void position.then(
    (answer) => {
      opening = answer;
      updateCounter();
    },
    () => undefined,
  );

  // The info panel's content, asked for once per photo and only while the panel is open.
  const infoOf = new Map<string, Promise<PhotoViewerInfo | null>>();
  let renderInfo: (state: ViewerInfoState) => void = () => undefined;
  function showInfo(): void {
    const slide = shown();
    if (!isInfoOpen || !slide) return;
    if (!infoOf.has(slide.id)) infoOf.set(slide.id, loadInfo(slide.id).catch(() => null));
    renderInfo({ kind: "loading" });
    void infoOf.get(slide.id)!.then((info) => {
      if (isInfoOpen && shown()?.id === slide.id) renderInfo(info ? { kind: "ready", info } : { kind: "failed" });
    });
  }
  let panel: HTMLElement | undefined;
  function setInfoOpen(open: boolean): void {
    isInfoOpen = open;
    if (panel) panel.hidden = !open;
    infoButton?.setAttribute("aria-expanded", String(open));
    pswp.element?.classList.toggle("viewer-info-open", open);
    // The photo makes room beside the panel on a wide screen.
    pswp.updateSize(true);
    showInfo();
  }

  let caption: HTMLElement | undefined;
  function updateCaption(): void {
    if (!caption) return;
    const slide = shown();
    const [title, text] = caption.children as HTMLCollectionOf<HTMLElement>;
    // textContent: the owner's words stay words, whatever they contain.
    title.textContent = slide?.title ?? "";
    text.textContent = slide?.caption ?? "";
    caption.hidden = !slide?.title && !slide?.caption;
  }

  // Room for the top bar, the caption and the info panel: beside the photo on a wide screen, under
  // it on a narrow one (the panel's own height, which follows its content).
  pswp.options.paddingFn = (viewport, item) => {
    const slide = item as ViewerSlide;
    const isBeside = viewport.x >= PANEL_BESIDE_MIN_WIDTH;
    const captionRoom = slide.title || slide.caption ? CAPTION_HEIGHT : 0;
    return {
      top: TOP_BAR_HEIGHT,
      bottom: isInfoOpen && !isBeside ? (panel?.offsetHeight ?? 0) : captionRoom,
      left: 0,
      right: isInfoOpen && isBeside ? PANEL_WIDTH : 0,
    };
  };

  pswp.on("uiRegister", () => {
    const ui = pswp.ui!;
    ui.registerElement({
      name: "viewer-counter",
      className: "pswp__counter viewer-counter",
      order: 5,
      onInit(element) {
        counter = element;
        element.setAttribute("role", "status");
        element.setAttribute("aria-live", "polite");
        element.innerHTML = '<span aria-hidden="true"></span><span class="visually-hidden"></span>';
        element.hidden = true;
        pswp.on("change", updateCounter);
      },
    });
    ui.registerElement({
      name: "viewer-slideshow",
      className: "pswp__button--viewer-slideshow",
      isButton: true,
      order: 8,
      html: PLAY_ICON,
      title: "Play slideshow (K)",
      onInit(element) {
        playButton = element;
      },
      onClick: () => slideshow.toggle(),
    });
    ui.registerElement({
      name: "viewer-info",
      className: "pswp__button--viewer-info",
      isButton: true,
      order: 9,
      html: INFO_ICON,
      title: "Photo details (I)",
      onInit(element) {
        infoButton = element;
        element.setAttribute("aria-expanded", "false");
        element.setAttribute("aria-controls", "viewer-info-panel");
      },
      onClick: () => setInfoOpen(!isInfoOpen),
    });
    ui.registerElement({
      name: "viewer-progress",
      className: "viewer-progress",
      appendTo: "root",
      onInit(element) {
        progress = element;
        element.setAttribute("aria-hidden", "true");
        element.style.setProperty("--viewer-slideshow-duration", `${SLIDESHOW_INTERVAL_MS}ms`);
      },
    });
    ui.registerElement({
      name: "viewer-caption",
      className: "viewer-caption",
      appendTo: "root",
      onInit(element) {
        caption = element;
        element.innerHTML = '<p class="viewer-caption-title"></p><p class="viewer-caption-text"></p>';
        pswp.on("change", updateCaption);
      },
    });
    ui.registerElement({
      name: "viewer-info-panel",
      className: "viewer-info",
      tagName: "section",
      appendTo: "root",
      onInit(element) {
        panel = element;
        element.id = "viewer-info-panel";
        element.hidden = true;
        element.setAttribute("aria-labelledby", "viewer-info-title");
        const root = createRoot(element);
        renderInfo = (state) => {
          // flushSync: the panel has its new height when the photo makes room for it.
          flushSync(() => root.render(<ViewerInfoPanel state={state} headingId="viewer-info-title" />));
          if (window.innerWidth < PANEL_BESIDE_MIN_WIDTH) pswp.updateSize(true);
        };
        pswp.on("change", showInfo);
        // After PhotoSwipe is done with the element: React lets go of it outside its own work.
        pswp.on("destroy", () => queueMicrotask(() => root.unmount()));
      },
    });
  });

  // A move the show did not make (a key, a swipe, an arrow button) is the reader taking over.
  pswp.on("change", () => {
    if (!isStepOfShow) slideshow.pause();
  });
  pswp.on("destroy", () => slideshow.pause());

  pswp.on("keydown", (event) => {
    const key = event.originalEvent;
    if (key.ctrlKey || key.metaKey || key.altKey) return;
    const letter = key.key.toLowerCase();
    if (key.key === " " && !isControl(key.target) && toggleShownVideo(pswp)) {
      // On a video, Space plays and pauses it, as in every player; K still runs the slideshow.
      key.preventDefault();
      event.preventDefault();
    } else if (letter === "k" || (key.key === " " && !isControl(key.target))) {
      key.preventDefault();
      event.preventDefault();
      slideshow.toggle();
    } else if (letter === "i") {
      event.preventDefault();
      setInfoOpen(!isInfoOpen);
    }
  });
}
