import type { Metadata } from "next";
import { DocumentTitle } from "@/src/ui/document-title";
import { ErrorView, errorDocumentTitle } from "@/src/ui/error-view";

export const metadata: Metadata = { title: { absolute: errorDocumentTitle(404) } };

export default function NotFound() {
  return (
    <ErrorView status={404}>
      <DocumentTitle title={errorDocumentTitle(404)} />
    </ErrorView>
  );
}
