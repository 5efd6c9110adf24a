import { processSingleton } from "@/src/config/process-singleton";
import { loadPlaceGazetteer, type PlaceGazetteer } from "./place-gazetteer";
import { type GeocodedPlace, isRealFix, reverseGeocode } from "./reverse-geocode";

/** The gazetteer of this process, loaded on the first lookup that needs it (a throw leaves it to the next). */
function gazetteer(): PlaceGazetteer {
  return processSingleton("places.gazetteer", loadPlaceGazetteer);
}

/** The place at these coordinates (reverseGeocode), loading the gazetteer only when they are a real fix. */
export function geocodePlace(latitude: number, longitude: number): GeocodedPlace | null {
  if (!isRealFix(latitude, longitude)) return null;
  return reverseGeocode(gazetteer(), latitude, longitude);
}
