import type { Metadata } from "next";
import { ErrorView, errorDocumentTitle } from "@/src/ui/error-view";

export const metadata: Metadata = { title: { absolute: errorDocumentTitle(404) } };

export default function NotFound() {
  return <ErrorView status={404} />;
}
