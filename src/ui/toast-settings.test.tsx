// @vitest-environment jsdom
import { act, render } from "@testing-library/react";
import toast, { useToasterStore } from "react-hot-toast";
import { afterEach, describe, expect, it } from "vitest";
import { TOAST_SETTINGS } from "./toast-settings";

type Toasts = ReturnType<typeof useToasterStore>["toasts"];

/** Renders react-hot-toast's store as the Toaster sees it (with no overrides, as in Providers). */
function renderStore(): { current: () => Toasts } {
  let latest: Toasts = [];
  function Probe() {
    latest = useToasterStore().toasts;
    return null;
  }
  render(<Probe />);
  return { current: () => latest };
}

afterEach(() => {
  act(() => toast.remove());
});

describe("react-hot-toast keeps the seed's constants", () => {
  it("shows at most 20 toasts at once", () => {
    const store = renderStore();
    act(() => {
      for (let index = 0; index < 25; index += 1) toast(`message ${index}`);
    });
    expect(store.current().filter((item) => item.visible)).toHaveLength(TOAST_SETTINGS.maximumVisible);
    expect(TOAST_SETTINGS.maximumVisible).toBe(20);
  });

  it("gives plain, error and custom toasts 4000 ms, success 2000 ms, and keeps loading until dismissed", () => {
    const store = renderStore();
    act(() => {
      toast("plain");
      toast.error("error");
      toast.custom("custom");
      toast.success("success");
      toast.loading("loading");
    });
    const durationOf = (message: string) => store.current().find((item) => item.message === message)?.duration;
    expect(durationOf("plain")).toBe(4000);
    expect(durationOf("error")).toBe(4000);
    expect(durationOf("custom")).toBe(4000);
    expect(durationOf("success")).toBe(2000);
    expect(durationOf("loading")).toBe(Number.POSITIVE_INFINITY);
    expect(TOAST_SETTINGS.durationMs).toEqual({ blank: 4000, error: 4000, custom: 4000, success: 2000, loading: Number.POSITIVE_INFINITY });
  });
});
