import type { Metadata } from "next";
import { ErrorView, errorDocumentTitle } from "@/src/ui/error-view";

export const metadata: Metadata = { title: { absolute: errorDocumentTitle(401) } };

// What `unauthorized()` would render with status 401. No page calls it (the interceptor sends a
// signed-out visitor to sign in instead), but with authInterrupts on, Next.js sends this fallback
// with every page: ours is in the site's design and a third the size of its default.
export default function Unauthorized() {
  return (
    <ErrorView status={401}>
      <p>
        <a href="/signin">Sign in</a> to see this page.
      </p>
    </ErrorView>
  );
}
