import type { Metadata } from "next";
import { requirePageUser } from "@/src/auth/page-guard";
import { getEnv } from "@/src/config/env";
import { AdminNav } from "@/src/ui/admin-nav";
import { PhotoUploader } from "@/src/uploads/components/photo-uploader";

export const metadata: Metadata = { title: "Upload" };

// /admin/upload – resumable uploads (tus) with per-file progress, pause, resume and retry (editors)
export default async function AdminUploadPage() {
  const user = await requirePageUser("editor", "/admin/upload");
  return (
    <>
      <AdminNav role={user.role} />
      <h1>Upload</h1>
      <p className="muted">New photos start private. Uploads resume where they stopped if the connection drops.</p>
      <PhotoUploader maxFileBytes={getEnv().MAX_UPLOAD_BYTES} />
    </>
  );
}
