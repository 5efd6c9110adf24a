import { getDb } from "@/src/db/client";
import { routeMethods, withShareGrant } from "@/src/http/api-handler";
import { SHARE_ZIP_RESPONSE, toShareZipResponse } from "@/src/http/share-download-response";
import { prepareShareZip } from "@/src/shares/share-downloads.service";
import { shareZipParamsSchema } from "@/src/shares/share-downloads.schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /s/[key]/download.zip – every photo of a share as one stored ZIP, streamed with its exact length
  GET: withShareGrant(
    async ({ request, share }) => {
      const isHead = request.method === "HEAD";
      return toShareZipResponse(await prepareShareZip(getDb(), share, new Date(), { count: !isHead }), { withBody: !isHead });
    },
    {
      summary: "Download every photo of a share link as a ZIP",
      description:
        "For a browser admitted to a link that offers the ZIP (403 otherwise). Starts at once with an exact Content-Length; revoking the link cuts a download in progress. Logged as download_zip.",
      params: shareZipParamsSchema,
      response: SHARE_ZIP_RESPONSE,
      errors: ["FORBIDDEN"],
    },
  ),
});
