import { ShareNotFoundView } from "@/src/shares/components/share-not-found-view";

// A photo this link does not hold (or no longer does): the same 404 whether it exists or not.
export default function ShareNotFound() {
  return <ShareNotFoundView />;
}
