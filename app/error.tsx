"use client";

import { useEffect } from "react";
import { ErrorView, errorDocumentTitle } from "@/src/ui/error-view";

interface ErrorPageProps {
  error: Error & { digest?: string };
  reset: () => void;
}

/**
 * The error boundary under the root layout. A server error reaches the browser with a digest (its
 * detail stays in the server log); an exception thrown in the browser has none.
 */
export default function ErrorPage({ error, reset }: ErrorPageProps) {
  const status = error.digest ? 500 : undefined;
  useEffect(() => {
    document.title = errorDocumentTitle(status);
  }, [status]);
  return (
    <ErrorView status={status}>
      <p>
        <button type="button" className="secondary" onClick={reset}>
          Try again
        </button>
      </p>
    </ErrorView>
  );
}
