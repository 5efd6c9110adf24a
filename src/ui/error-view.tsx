import Link from "next/link";
import type { ReactNode } from "react";
import { CLIENT_EXCEPTION_TITLE, getErrorTitle } from "@/src/errors/error-titles";

interface ErrorViewProps {
  /** The HTTP status; leave it out for an exception in the browser, which has none. */
  status?: number;
  children?: ReactNode;
}

/** The body of every error page: the status and its title, then what the reader can do. */
export function ErrorView({ status, children }: ErrorViewProps) {
  const title = status === undefined ? CLIENT_EXCEPTION_TITLE : getErrorTitle(status);
  return (
    <section className="error-view" aria-labelledby="error-title">
      <h1 id="error-title">
        {status !== undefined && <span className="error-status">{status}</span>}
        <span className="error-title">{title}</span>
      </h1>
      {children}
      <p className="error-view-actions">
        <Link href="/" className="button secondary">
          Back to the gallery
        </Link>
      </p>
    </section>
  );
}

export function errorDocumentTitle(status?: number): string {
  return status === undefined ? CLIENT_EXCEPTION_TITLE : `${status}: ${getErrorTitle(status)}`;
}
