import type { PhotoDetail } from "../../photos.service";
import { mapUrl } from "./photo-facts";

/**
 * Where the photo was taken, in words (or its coordinates), with a link to a map when there are
 * coordinates: on the photo page and in the full-screen viewer's info panel. Nothing without a
 * place, which the metadata policy has already left out for a viewer who may not see it.
 */
export function PhotoPlace({ location, placeName }: Pick<PhotoDetail, "location" | "placeName">) {
  if (!location && !placeName) return null;
  return (
    <p className="photo-where">
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M12 21s-6.5-5.6-6.5-11a6.5 6.5 0 0 1 13 0c0 5.4-6.5 11-6.5 11z" />
        <circle cx="12" cy="10" r="2.3" />
      </svg>
      <span data-testid="photo-place">{placeName ?? (location && `${location.latitude.toFixed(4)}, ${location.longitude.toFixed(4)}`)}</span>
      {location && (
        <a href={mapUrl(location)} rel="noopener noreferrer" target="_blank">
          Map<span className="visually-hidden"> of where it was taken, on OpenStreetMap (new tab)</span>
        </a>
      )}
    </p>
  );
}
