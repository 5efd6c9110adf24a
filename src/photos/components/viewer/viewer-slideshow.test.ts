import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSlideshow, type SlideshowStep } from "./viewer-slideshow";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function showOver(steps: SlideshowStep[]) {
  const advance = vi.fn(() => steps.shift() ?? "end");
  const playing: boolean[] = [];
  const show = createSlideshow({ advance, onPlayingChange: (isPlaying) => playing.push(isPlaying), intervalMs: 1000 });
  return { show, advance, playing };
}

describe("createSlideshow", () => {
  it("moves on once per interval while playing, and not at all once paused", () => {
    const { show, advance, playing } = showOver(["moved", "moved", "moved", "moved"]);
    show.play();
    vi.advanceTimersByTime(2500);
    expect(advance).toHaveBeenCalledTimes(2);
    show.pause();
    vi.advanceTimersByTime(5000);
    expect(advance).toHaveBeenCalledTimes(2);
    expect(playing).toEqual([true, false]);
    expect(show.isPlaying).toBe(false);
  });

  it("stops by itself at the end, but keeps waiting while more photos load", () => {
    const { show, advance, playing } = showOver(["moved", "waiting", "waiting", "end"]);
    show.toggle();
    vi.advanceTimersByTime(3000);
    expect(show.isPlaying).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(show.isPlaying).toBe(false);
    expect(playing).toEqual([true, false]);
    vi.advanceTimersByTime(5000);
    expect(advance).toHaveBeenCalledTimes(4);
  });

  it("toggles, and never runs two timers however often play is pressed", () => {
    const { show, advance } = showOver(Array<SlideshowStep>(10).fill("moved"));
    show.play();
    show.play();
    vi.advanceTimersByTime(1000);
    expect(advance).toHaveBeenCalledTimes(1);
    show.toggle();
    expect(show.isPlaying).toBe(false);
  });
});
