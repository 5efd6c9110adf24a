import type PhotoSwipe from "photoswipe";
import type { ViewerSlide } from "./viewer-slide";

/**
 * A video's slide in the full-screen viewer: PhotoSwipe's own content replaced by a `<video
 * controls>` showing the poster until the reader plays it. Never autoplay (sound would start
 * unasked); paused when the reader moves to another slide; not zoomable (the browser's controls
 * take the pointer). Space plays and pauses it (viewer-chrome.tsx asks `toggleShownVideo`).
 */
export function addVideoSlides(pswp: PhotoSwipe): void {
  pswp.on("contentLoad", (event) => {
    const { content } = event;
    const video = (content.data as ViewerSlide).video;
    if (!video) return;
    event.preventDefault();
    const slide = content.data as ViewerSlide;
    const element = document.createElement("video");
    element.className = "pswp__video";
    element.controls = true;
    element.playsInline = true;
    element.preload = "metadata";
    element.poster = slide.src;
    element.src = video.src;
    element.setAttribute("aria-label", slide.alt);
    element.setAttribute("data-testid", "viewer-video");
    // The controls take the pointer: a press on them must not reach PhotoSwipe, which would read a
    // tap as "close" and a drag as a swipe to the next slide.
    element.addEventListener("pointerdown", (pointer) => pointer.stopPropagation());
    content.element = element as unknown as HTMLDivElement;
    content.state = "loaded";
    content.onLoaded();
  });

  pswp.addFilter("isContentZoomable", (isZoomable, content) => ((content.data as ViewerSlide).video ? false : isZoomable));

  // Leaving a slide pauses its video; the next one never starts by itself.
  pswp.on("contentDeactivate", ({ content }) => {
    if (content.element instanceof HTMLVideoElement) content.element.pause();
  });
}

/** Plays or pauses the video on the shown slide; false when the slide is a photo. */
export function toggleShownVideo(pswp: PhotoSwipe): boolean {
  const element = pswp.currSlide?.content.element;
  if (!(element instanceof HTMLVideoElement)) return false;
  if (element.paused) void element.play().catch(() => undefined);
  else element.pause();
  return true;
}
