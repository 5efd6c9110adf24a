import { toViewerSlide, type ViewerSlide } from "@/src/photos/components/viewer/viewer-slide";
import type { PhotoViewerInfo } from "@/src/photos/photos.service";
import type { SharePhotoView } from "./share-gallery.service";

/**
 * A share link's photo as the full-screen viewer shows it: the gallery's own slide (a `<video>`
 * slide for a video, the LIVE badge for a clip), with every URL already under the link's path and
 * the link's own name for it. Null while it has nothing to show. Client-safe.
 */
export function toShareViewerSlide(photo: SharePhotoView): ViewerSlide | null {
  const slide = toViewerSlide(photo);
  return slide && { ...slide, alt: photo.name };
}

/**
 * The viewer's info panel for a share's photo: only what the link's policy already let through
 * (camera and date when it shows EXIF, the place when it shows location), never more.
 */
export function toShareViewerInfo(photo: SharePhotoView): PhotoViewerInfo {
  return {
    id: photo.id,
    takenAt: photo.takenAt,
    exif: photo.exif ?? { cameraMake: null, cameraModel: null, lens: null, focalLength: null, aperture: null, exposureTime: null, iso: null },
    location: photo.location && { ...photo.location, altitude: null },
    placeName: photo.placeName,
  };
}
