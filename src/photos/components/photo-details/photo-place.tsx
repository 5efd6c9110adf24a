import type { PhotoDetail } from "../../photos.service";
import { mapUrl } from "./photo-facts";

/**
 * Where the photo was taken, in words (or its coordinates), with a link to a map when there are
 * coordinates: on the photo page and in the full-screen viewer's info panel. Nothing without a
 * place, which the metadata policy has already left out for a viewer who may not see it.
 * `searchHref`: where the words lead (the page passes the search for photos of the same place).
 */
export function PhotoPlace({ location, placeName, searchHref }: Pick<PhotoDetail, "location" | "placeName"> & { searchHref?: string | null }) {
  if (!location && !placeName) return null;
  const words = placeName ?? (location && `${location.latitude.toFixed(4)}, ${location.longitude.toFixed(4)}`);
  return (
    <p className="photo-where">
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M12 21s-6.5-5.6-6.5-11a6.5 6.5 0 0 1 13 0c0 5.4-6.5 11-6.5 11z" />
        <circle cx="12" cy="10" r="2.3" />
      </svg>
      {placeName && searchHref ? (
        <a href={searchHref} data-testid="photo-place" className="photo-place-search">
          {words}
          <span className="visually-hidden">: more photos taken there</span>
        </a>
      ) : (
        <span data-testid="photo-place">{words}</span>
      )}
      {location && (
        <a href={mapUrl(location)} rel="noopener noreferrer" target="_blank">
          Map<span className="visually-hidden"> of where it was taken, on OpenStreetMap (new tab)</span>
        </a>
      )}
    </p>
  );
}
