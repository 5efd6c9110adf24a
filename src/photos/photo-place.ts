import type { PhotoRow } from "@/src/db/database";
import type { GpsPosition } from "@/src/images/photo-metadata-reader";
import { geocodePlace } from "@/src/places/place-geocoder";
import type { PhotoPlaceColumns } from "./photo-places.repository";

/**
 * What processing writes of a photo's place from the coordinates in its file: the coordinates,
 * and the place in words worked out offline (src/places) only when they differ from those already
 * stored, so a retry or a re-render never geocodes again and a lookup costs nothing twice. Nothing
 * at all when the owner set the place by hand (place_source "manual"): the caller's statement
 * repeats that condition (updatePlaceUnlessManual).
 */
export function placeColumnsFromFile(photo: PhotoRow, gps: GpsPosition | null): Partial<PhotoPlaceColumns> {
  if (photo.place_source === "manual") return {};
  const latitude = gps?.latitude ?? null;
  const longitude = gps?.longitude ?? null;
  const position = { gps_latitude: latitude, gps_longitude: longitude, gps_altitude: gps?.altitude ?? null };
  const unmoved = photo.gps_latitude === latitude && photo.gps_longitude === longitude;
  if (unmoved && photo.place_source === "automatic") return position;
  const place = latitude === null || longitude === null ? null : geocodePlace(latitude, longitude);
  return {
    ...position,
    place_city: place?.city ?? null,
    place_region: place?.region ?? null,
    place_country_code: place?.countryCode ?? null,
    place_time_zone: place?.timeZone ?? null,
    place_source: place ? "automatic" : null,
  };
}
