"use client";

import { type ErrorBoundaryProps, ErrorBoundaryView } from "@/src/ui/error-boundary-view";
import "./styles";

// Replaces the root layout when the layout itself fails, so it brings its own <html>.
export default function GlobalError({ error }: ErrorBoundaryProps) {
  return (
    <html lang="en">
      <body>
        <ErrorBoundaryView error={error} />
      </body>
    </html>
  );
}
