// @vitest-environment jsdom
import { act, cleanup, render } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EndlessGallery } from "./endless-gallery";

vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn() }) }));

/** Every IntersectionObserver the gallery makes: its callback, its margin, and whether it still watches. */
const observers: Array<{ callback: IntersectionObserverCallback; rootMargin: string; watching: boolean }> = [];

beforeEach(() => {
  observers.length = 0;
  vi.stubGlobal(
    "IntersectionObserver",
    class {
      private readonly record;
      constructor(callback: IntersectionObserverCallback, options: IntersectionObserverInit = {}) {
        this.record = { callback, rootMargin: options.rootMargin ?? "0px", watching: false };
        observers.push(this.record);
      }
      observe() {
        this.record.watching = true;
      }
      disconnect() {
        this.record.watching = false;
      }
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const watching = () => observers.filter((observer) => observer.watching);

describe("EndlessGallery", () => {
  it("asks for the next page only when the end is on screen until the reader scrolls, then 800 px ahead", async () => {
    const loadMore = vi.fn(async () => ({ tiles: [], nextCursor: null }));
    render(<EndlessGallery firstTiles={[]} firstCursor="cursor-1" loadMore={loadMore} />);
    expect(watching().map((observer) => observer.rootMargin)).toEqual(["0px"]);

    await act(async () => {
      window.dispatchEvent(new Event("scroll"));
    });
    expect(watching().map((observer) => observer.rootMargin)).toEqual(["800px"]);

    await act(async () => {
      watching()[0].callback([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver);
    });
    expect(loadMore).toHaveBeenCalledWith("cursor-1");
  });
});
