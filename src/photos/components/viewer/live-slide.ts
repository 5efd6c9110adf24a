import type PhotoSwipe from "photoswipe";
import type { ViewerSlide } from "./viewer-slide";

// A Live Photo's or motion photo's clip in the full-screen viewer. The slide stays the still (an
// image PhotoSwipe zooms as any other); a "LIVE" badge in the top bar says it moves. The clip plays
// over the still, muted and once through, then the still shows again:
// - with a mouse, while the pointer rests on the photo or on the badge;
// - by touch, while a finger holds the badge (a long press on the photo itself is PhotoSwipe's pan);
// - by keyboard, Enter or Space on the badge plays it once.
// The clip is fetched only when it is first asked for (preload none until then), never autoplayed.

const LIVE_ICON =
  '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="3" fill="currentColor"/><circle cx="12" cy="12" r="6.5" fill="none" stroke="currentColor" stroke-width="1.6"/><circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="1.6" stroke-dasharray="1.6 2.2"/></svg>';

export function addLiveSlides(pswp: PhotoSwipe): void {
  let badge: HTMLButtonElement | undefined;
  let playing: HTMLVideoElement | null = null;

  const shownMotion = (): string | undefined => (pswp.currSlide?.data as ViewerSlide | undefined)?.motion?.src;

  function stop(): void {
    if (!playing) return;
    playing.pause();
    playing.classList.remove("is-playing");
    playing = null;
    badge?.setAttribute("aria-pressed", "false");
  }

  /** The clip's element over the shown still, made on first use and laid over the image at its size. */
  function clipOverShownStill(src: string): HTMLVideoElement | null {
    const slide = pswp.currSlide;
    const image = slide?.content.element;
    if (!slide || !image || !slide.container) return null;
    let video = slide.container.querySelector<HTMLVideoElement>("video.viewer-live-video");
    if (!video) {
      video = document.createElement("video");
      video.className = "viewer-live-video";
      video.muted = true;
      video.playsInline = true;
      video.preload = "auto";
      video.disablePictureInPicture = true;
      video.setAttribute("aria-hidden", "true");
      video.setAttribute("data-testid", "viewer-live-video");
      video.src = src;
      // Once through, then back to the still.
      video.addEventListener("ended", () => {
        if (playing === video) stop();
      });
      slide.container.append(video);
    }
    video.style.width = image.style.width || `${image.offsetWidth}px`;
    video.style.height = image.style.height || `${image.offsetHeight}px`;
    return video;
  }

  function play(): void {
    const src = shownMotion();
    if (!src || playing) return;
    const video = clipOverShownStill(src);
    if (!video) return;
    playing = video;
    video.currentTime = 0;
    video.classList.add("is-playing");
    badge?.setAttribute("aria-pressed", "true");
    void video.play().catch(() => stop());
  }

  function updateBadge(): void {
    stop();
    if (badge) badge.hidden = !shownMotion();
  }

  pswp.on("uiRegister", () => {
    pswp.ui!.registerElement({
      name: "viewer-live",
      className: "viewer-live-badge",
      tagName: "button",
      order: 7,
      html: `${LIVE_ICON}<span>LIVE</span>`,
      onInit(element) {
        badge = element as HTMLButtonElement;
        badge.type = "button";
        badge.title = "Live Photo: hold or hover to play";
        badge.setAttribute("aria-label", "Play the Live Photo");
        badge.setAttribute("aria-pressed", "false");
        badge.setAttribute("data-testid", "viewer-live-badge");
        badge.hidden = true;
        // A held finger or button plays it; letting go stops it. The press must not reach PhotoSwipe.
        badge.addEventListener("pointerdown", (event) => {
          event.stopPropagation();
          play();
        });
        badge.addEventListener("pointerenter", (event) => {
          if (event.pointerType === "mouse") play();
        });
        for (const end of ["pointerup", "pointercancel", "pointerleave"] as const) {
          badge.addEventListener(end, (event) => {
            if (end !== "pointerup" || event.pointerType !== "mouse") stop();
          });
        }
        // Enter or Space (a click without a pointer): once through.
        badge.addEventListener("click", (event) => {
          if (event.detail === 0) play();
        });
        // A long press on touch would open the browser's menu over the badge.
        badge.addEventListener("contextmenu", (event) => event.preventDefault());
        pswp.on("change", updateBadge);
        updateBadge();
      },
    });
  });

  // With a mouse, resting on the photo plays it; leaving stops it.
  pswp.on("contentActivate", ({ content }) => {
    const holder = content.slide?.holderElement;
    if (!holder || !(content.data as ViewerSlide).motion || holder.dataset.live) return;
    holder.dataset.live = "true";
    holder.addEventListener("pointerover", (event) => {
      if (event.pointerType === "mouse" && event.target instanceof Element && event.target.closest(".pswp__img, .viewer-live-video")) play();
    });
    holder.addEventListener("pointerout", (event) => {
      if (event.pointerType === "mouse" && !(event.relatedTarget instanceof Element && event.relatedTarget.closest(".pswp__img, .viewer-live-video"))) stop();
    });
  });

  pswp.on("zoomPanUpdate", () => {
    // The clip is laid over the still at its fitted size; zooming in shows the still alone.
    const slide = pswp.currSlide;
    if (playing && slide && slide.currZoomLevel > slide.zoomLevels.initial) stop();
  });
  pswp.on("destroy", stop);
}
