"use client";

import { ErrorView, errorDocumentTitle } from "@/src/ui/error-view";
import "./globals.css";

// Replaces the root layout when the layout itself fails, so it brings its own <html>.
export default function GlobalError({ error }: { error: Error & { digest?: string } }) {
  const status = error.digest ? 500 : undefined;
  return (
    <html lang="en">
      <head>
        <title>{errorDocumentTitle(status)}</title>
      </head>
      <body>
        <ErrorView status={status} />
      </body>
    </html>
  );
}
