"use client";

import { useEffect } from "react";
import type { UploaderUppy } from "./photo-uploader";

/**
 * A phone that sleeps mid-upload wakes offline or with dead connections: tus gives up at once
 * while the browser says it is offline (and after its retries otherwise), and Uppy would leave
 * the files failed until someone presses Retry. This retries them when the connection comes back
 * and when the page is shown again; tus then resumes each from the offset the server already has.
 * Files the server refused for good have already left the uploader, so they are not sent again.
 */
export function useResumeWhenBack(uppy: UploaderUppy): void {
  useEffect(() => {
    const retryFailedUploads = () => {
      if (!navigator.onLine) return;
      if (!uppy.getFiles().some((file) => file.error)) return;
      void uppy.retryAll();
    };
    const onVisibilityChange = () => {
      if (document.visibilityState === "visible") retryFailedUploads();
    };
    uppy.on("back-online", retryFailedUploads);
    document.addEventListener("visibilitychange", onVisibilityChange);
    return () => {
      uppy.off("back-online", retryFailedUploads);
      document.removeEventListener("visibilitychange", onVisibilityChange);
    };
  }, [uppy]);
}
