// Which XMP sidecar in a folder belongs to a media file. Lightroom and Capture One write `a.xmp`
// (one sidecar for a RAW and its JPEG alike); darktable, digiKam and exiftool's `-o %f.%e.xmp`
// write `a.jpg.xmp`. Names are compared without case (cameras write IMG_1.JPG, tools a.xmp).
// When both exist, `a.jpg.xmp` wins: it names exactly this file, while `a.xmp` may have been
// written for the RAW beside it.

/** The sidecar's name as it is in the folder, or null. `folderNames` is every name in the folder. */
export function findXmpSidecar(mediaName: string, folderNames: readonly string[]): string | null {
  return xmpSidecarIndex(folderNames).sidecarFor(mediaName);
}

/** Built once per folder so matching thousands of files costs one pass over the names. */
export function xmpSidecarIndex(folderNames: readonly string[]): { sidecarFor(mediaName: string): string | null } {
  const sidecars = new Map<string, string>();
  for (const name of folderNames) if (isXmpSidecarName(name)) sidecars.set(name.toLowerCase(), name);
  return {
    sidecarFor(mediaName) {
      const lower = mediaName.toLowerCase();
      const dot = lower.lastIndexOf(".");
      const stem = dot > 0 ? lower.slice(0, dot) : lower;
      return sidecars.get(`${lower}.xmp`) ?? sidecars.get(`${stem}.xmp`) ?? null;
    },
  };
}

export function isXmpSidecarName(name: string): boolean {
  return name.toLowerCase().endsWith(".xmp");
}
