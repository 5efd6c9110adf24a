import type { Metadata } from "next";
import { toViewer } from "@/src/access/viewer";
import { albumPickerChoices } from "@/src/albums/album-tree";
import { listManageableAlbums } from "@/src/albums/albums.service";
import { requirePageUser } from "@/src/auth/page-guard";
import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import { listRecentUploads } from "@/src/photos/recent-uploads.service";
import { AdminPage } from "@/src/ui/admin-page";
import { PhotoUploader } from "@/src/uploads/components/photo-uploader";
import { FaceConsentAsk } from "../face-consent-ask";

export const metadata: Metadata = { title: "Upload" };

// /admin/upload – resumable uploads (tus) with per-file progress, pause, resume and retry (editors),
// and the user's recent uploads with their thumbnails and status
export default async function AdminUploadPage() {
  const user = await requirePageUser("editor", "/admin/upload");
  const [recentUploads, albums] = await Promise.all([listRecentUploads(getDb(), user), listManageableAlbums(getDb(), user)]);
  return (
    <AdminPage role={user.role} title="Upload" intro="New photos start private. Uploads resume where they stopped if the connection drops.">
      <FaceConsentAsk viewer={toViewer(user)} />
      <PhotoUploader
        maxFileBytes={getEnv().MAX_UPLOAD_BYTES}
        recentUploads={recentUploads}
        albums={albumPickerChoices(albums)}
      />
    </AdminPage>
  );
}
