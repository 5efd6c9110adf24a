import type { Metadata } from "next";
import { DocumentTitle } from "@/src/ui/document-title";
import { ErrorView, errorDocumentTitle } from "@/src/ui/error-view";

export const metadata: Metadata = { title: { absolute: errorDocumentTitle(403) } };

// Rendered with status 403 when a signed-in user's role does not allow the page.
export default function Forbidden() {
  return (
    <ErrorView status={403}>
      <DocumentTitle title={errorDocumentTitle(403)} />
      <p data-testid="forbidden-message">Your role does not allow this page. Ask an admin if you need access.</p>
    </ErrorView>
  );
}
