import { routeMethods, withPublic } from "@/src/http/api-handler";

// POST /api/upload/share – the manifest's share target. The upload page's worker
// (public/upload-share-worker.js) answers these posts in the browser and hands the files to the
// resumable uploader; a post that reaches the server came from a browser without that worker
// (the app was installed before the upload page was ever opened there). Nothing is stored from it:
// the photographer is sent to the upload page, which says so and installs the worker.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  POST: withPublic(
    async () => new Response(null, { status: 303, headers: { Location: "/admin/upload?shared=missed", "Cache-Control": "no-store" } }),
    {
      summary: "The web app's share target, when the browser's upload worker did not take the post",
      description:
        "Shared files are normally taken by the upload page's service worker and uploaded through tus. A post that reaches the server stores nothing and is sent to the upload page (303), which explains.",
      rawBody: { contentType: "multipart/form-data", description: "`photos` file fields, as the share sheet sends them (not read)." },
      response: { status: 303, description: "To the upload page, which explains what happened.", headers: { Location: "/admin/upload?shared=missed" } },
    },
  ),
});
