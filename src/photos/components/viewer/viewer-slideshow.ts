/** How long each photo stays in the slideshow: long enough to look, short enough to feel like a show. */
export const SLIDESHOW_INTERVAL_MS = 5_000;

/** What one step of the show did: moved on, waits for more photos to load, or reached the end. */
export type SlideshowStep = "moved" | "waiting" | "end";

export interface SlideshowOptions {
  /** Shows the next photo; the show stops at "end". */
  advance: () => SlideshowStep;
  /** Told each time the show starts or stops (the play/pause button and the counter follow it). */
  onPlayingChange: (isPlaying: boolean) => void;
  intervalMs?: number;
}

export interface Slideshow {
  readonly isPlaying: boolean;
  play(): void;
  pause(): void;
  toggle(): void;
}

/**
 * The viewer's slideshow: a photo every few seconds until the reader pauses it, moves themselves
 * or the photos run out (WCAG 2.2.2: anything that moves on by itself can be paused). It never
 * starts by itself; the viewer pauses it on any move it did not make, and when it closes.
 */
export function createSlideshow({ advance, onPlayingChange, intervalMs = SLIDESHOW_INTERVAL_MS }: SlideshowOptions): Slideshow {
  let timer: ReturnType<typeof setInterval> | null = null;

  function pause(): void {
    if (timer === null) return;
    clearInterval(timer);
    timer = null;
    onPlayingChange(false);
  }

  function play(): void {
    if (timer !== null) return;
    timer = setInterval(() => {
      if (advance() === "end") pause();
    }, intervalMs);
    onPlayingChange(true);
  }

  return {
    get isPlaying() {
      return timer !== null;
    },
    play,
    pause,
    toggle: () => (timer === null ? play() : pause()),
  };
}
