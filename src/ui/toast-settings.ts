/**
 * The toast limits from the original request. They are react-hot-toast's own defaults, which we
 * keep (the Toaster gets no overrides); a unit test checks the library still behaves this way.
 */
export const TOAST_SETTINGS = {
  maximumVisible: 20,
  durationMs: { blank: 4000, error: 4000, custom: 4000, success: 2000, loading: Number.POSITIVE_INFINITY },
} as const;
