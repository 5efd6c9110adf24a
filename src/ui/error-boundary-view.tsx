"use client";

import { useEffect } from "react";
import { ErrorView, errorDocumentTitle } from "./error-view";

export interface ErrorBoundaryProps {
  error: Error & { digest?: string };
  reset?: () => void;
}

/**
 * What an error boundary shows. A server error reaches the browser with a digest (its detail stays
 * in the server log) and is a 500; an exception thrown in the browser has none and no status.
 */
export function ErrorBoundaryView({ error, reset }: ErrorBoundaryProps) {
  const status = error.digest ? 500 : undefined;
  useEffect(() => {
    document.title = errorDocumentTitle(status);
  }, [status]);
  return (
    <ErrorView status={status}>
      {reset && (
        <p>
          <button type="button" className="secondary" onClick={reset}>
            Try again
          </button>
        </p>
      )}
    </ErrorView>
  );
}
