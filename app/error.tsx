"use client";

import { type ErrorBoundaryProps, ErrorBoundaryView } from "@/src/ui/error-boundary-view";

// The error boundary under the root layout.
export default function ErrorPage(props: ErrorBoundaryProps) {
  return <ErrorBoundaryView {...props} />;
}
