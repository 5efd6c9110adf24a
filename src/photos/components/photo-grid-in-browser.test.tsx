// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { rgbaToThumbHash } from "thumbhash";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { GalleryTile } from "../gallery-tile";
import { PhotoGrid } from "./photo-grid";

const push = vi.fn();
vi.mock("next/navigation", () => ({ useRouter: () => ({ push }) }));

afterEach(() => {
  cleanup();
  push.mockClear();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/**
 * Clicks and answers whether the browser would have followed the link itself: read after the grid's
 * handler ran, then the navigation is stopped, which jsdom cannot do.
 */
function clickLeavesItToBrowser(element: Element, init: MouseEventInit = {}): boolean {
  let leftToBrowser = false;
  const seeIt = (event: Event) => {
    leftToBrowser = !event.defaultPrevented;
    event.preventDefault();
  };
  document.addEventListener("click", seeIt);
  fireEvent.click(element, init);
  document.removeEventListener("click", seeIt);
  return leftToBrowser;
}

const tiles: GalleryTile[] = [1, 2].map((index) => ({
  id: `photo-${index}`,
  ratio: 1.5,
  name: `Photo ${index}`,
  color: null,
  thumbhash: null,
  badge: null,
  base: `/media/k/variants/p${index}/`,
  avif: "",
  jpeg: "jpeg-800.jpg 800w",
}));

describe("PhotoGrid's links", () => {
  it("open a photo within the app, as next/link did, with the page's order in the link", () => {
    render(<PhotoGrid tiles={tiles} linkQuery="?album=trip" />);
    // A click on the image inside the link, as a reader's tap lands.
    expect(clickLeavesItToBrowser(screen.getByAltText("Photo 2"))).toBe(false);
    expect(push).toHaveBeenCalledWith("/p/photo-2?album=trip");
  });

  it("leave a modified or middle click to the browser (a new tab or window)", () => {
    render(<PhotoGrid tiles={tiles} />);
    const link = screen.getByAltText("Photo 1");
    expect(clickLeavesItToBrowser(link, { ctrlKey: true })).toBe(true);
    expect(clickLeavesItToBrowser(link, { metaKey: true })).toBe(true);
    expect(clickLeavesItToBrowser(link, { shiftKey: true })).toBe(true);
    expect(clickLeavesItToBrowser(link, { button: 1 })).toBe(true);
    expect(push).not.toHaveBeenCalled();
  });

  it("do not take the clicks of what is drawn over a tile outside its link (a share's pick toggle)", () => {
    const onPick = vi.fn();
    render(<PhotoGrid tiles={tiles} linkBase="/s/key/p/" renderTileExtra={(tile) => <button type="button" onClick={() => onPick(tile.id)}>Pick {tile.name}</button>} />);
    fireEvent.click(screen.getByRole("button", { name: "Pick Photo 1" }));
    expect(onPick).toHaveBeenCalledWith("photo-1");
    expect(push).not.toHaveBeenCalled();
    expect(clickLeavesItToBrowser(screen.getByAltText("Photo 1"))).toBe(false);
    expect(push).toHaveBeenCalledWith("/s/key/p/photo-1");
  });
});

describe("PhotoGrid's blurred previews", () => {
  it("are painted behind images still loading a few tiles a task, never all in one long task", async () => {
    vi.useFakeTimers();
    vi.spyOn(HTMLImageElement.prototype, "complete", "get").mockReturnValue(false);
    const thumbhash = btoa(String.fromCharCode(...rgbaToThumbHash(4, 3, new Uint8Array(4 * 3 * 4).fill(128))));
    const many = Array.from({ length: 10 }, (_unused, index) => ({ ...tiles[0]!, id: `photo-${index}`, name: `Photo ${index}`, thumbhash }));
    const { container } = render(<PhotoGrid tiles={many} />);
    const painted = () => [...container.querySelectorAll<HTMLElement>("a.grid-tile")].filter((link) => link.style.backgroundImage.includes("data:image/png")).length;
    expect(painted()).toBe(4);
    await act(() => vi.runAllTimersAsync());
    expect(painted()).toBe(10);
  });

  it("are not painted behind images already loaded", () => {
    vi.spyOn(HTMLImageElement.prototype, "complete", "get").mockReturnValue(true);
    const thumbhash = btoa(String.fromCharCode(...rgbaToThumbHash(4, 3, new Uint8Array(4 * 3 * 4).fill(128))));
    const { container } = render(<PhotoGrid tiles={[{ ...tiles[0]!, thumbhash }]} />);
    expect(container.querySelector<HTMLElement>("a.grid-tile")!.style.backgroundImage).toBe("");
  });
});
