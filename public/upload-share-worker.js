// "Share → Contact Sheet" on a phone: the web app manifest's share_target posts the shared files to
// /api/upload/share. This worker (registered by the upload page, scoped to that one address) takes
// them out of that post, keeps them in the browser's Cache Storage, and opens the upload page, which
// sends them through the same resumable (tus) path as any other upload. It intercepts nothing else,
// and keeps nothing once the page has taken the files.
const SHARE_PATH = "/api/upload/share";
const CACHE_NAME = "contact-sheet-shared-photos";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "POST" || url.origin !== self.location.origin || url.pathname !== SHARE_PATH) return;
  event.respondWith(keepSharedFiles(event.request));
});

async function keepSharedFiles(request) {
  let files = [];
  try {
    const form = await request.formData();
    files = form.getAll("photos").filter((value) => typeof value === "object" && value.size > 0);
  } catch {
    // An unreadable post: the upload page says nothing arrived.
  }
  const batch = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const cache = await caches.open(CACHE_NAME);
  await Promise.all(
    files.map((file, index) =>
      cache.put(
        `${SHARE_PATH}/pending/${batch}/${index}`,
        new Response(file, {
          headers: { "Content-Type": file.type || "application/octet-stream", "X-File-Name": encodeURIComponent(file.name || `shared-${index + 1}`) },
        }),
      ),
    ),
  );
  return Response.redirect(new URL(`/admin/upload?shared=${batch}`, self.location.origin).href, 303);
}
