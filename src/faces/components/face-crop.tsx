import type { CSSProperties } from "react";
import type { PersonView } from "@/src/faces/people.service";

/** Room around the face, as a share of the face box's larger side. */
const MARGIN = 1.6;

/**
 * A person's face cut from their cover photo, round: the photo's variant placed so the face box,
 * with room around it, fills the circle. Pure CSS (percentages of the circle), so it scales with
 * whatever size the layout gives it and needs no script or extra image.
 */
export function FaceCrop({ cover, size }: { cover: PersonView["cover"]; size: "small" | "large" }) {
  if (!cover?.imageUrl) return <span className={`face-crop face-crop-${size} face-crop-empty`} aria-hidden="true" />;
  const { box, aspectRatio } = cover;
  // Width of the whole photo, as a percentage of the circle, so the face's larger side fills it.
  const width = 100 / (MARGIN * Math.max(box.width, box.height / aspectRatio, 0.01));
  const height = width / aspectRatio;
  const style: CSSProperties = {
    width: `${width}%`,
    height: `${height}%`,
    left: `${50 - (box.left + box.width / 2) * width}%`,
    top: `${50 - (box.top + box.height / 2) * height}%`,
  };
  return (
    <span className={`face-crop face-crop-${size}`} aria-hidden="true">
      {/* eslint-disable-next-line @next/next/no-img-element -- a variant URL already sized; the crop is CSS */}
      <img src={cover.imageUrl} alt="" loading="lazy" decoding="async" style={style} />
    </span>
  );
}
