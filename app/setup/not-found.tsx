import type { Metadata } from "next";
import Link from "next/link";
import { DocumentTitle } from "@/src/ui/document-title";
import { ErrorView } from "@/src/ui/error-view";

const TITLE = "This setup link does not work";

export const metadata: Metadata = { title: { absolute: TITLE } };

// /setup without the current one-time token. The words are the same whether the token was never
// valid, was used, or is from an earlier start, so the page tells nobody which it was.
export default function SetupLinkNotValid() {
  return (
    <ErrorView status={404}>
      <DocumentTitle title={TITLE} />
      <p>
        A setup link works once, and only until the server restarts: each start prints a new one in the server&apos;s
        output (the terminal running <code>npm start</code>) while the site has no admin.
      </p>
      <p>
        Once the first admin account exists, <code>/setup</code> is closed for good.{" "}
        <Link href="/signin">Sign in</Link> instead.
      </p>
    </ErrorView>
  );
}
