import type { TestClient } from "./test-client";

/**
 * Admits a browser to a link without a password the way a person is admitted: the link's page
 * offers a "View photos" form, and its POST (sent by the page's script, or pressed without
 * JavaScript) counts the view and sets the grant (SECURITY.md 59). Answers the POST's response
 * (303 back to the link on success).
 */
export function enterShareLink(visitor: TestClient, key: string): Promise<Response> {
  return visitor.request(`/s/${key}/api/enter?next=${encodeURIComponent(`/s/${key}`)}`, { method: "POST" });
}
