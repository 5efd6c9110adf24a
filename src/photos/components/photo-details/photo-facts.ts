import { describeCamera } from "../../describe-camera";
import type { PhotoDetail } from "../../photos.service";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/**
 * When the photo was taken, as the camera's clock said it ("3 May 2019, 14:32"): read from the
 * digits, never through a Date, because most cameras record no offset and the server's time zone
 * would otherwise move the hour (or the day).
 */
export function formatTakenAt(takenAt: string | null): string | null {
  const match = takenAt?.match(/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match;
  const monthName = MONTHS[Number(month) - 1];
  if (!monthName) return null;
  const date = `${Number(day)} ${monthName} ${year}`;
  return hour && minute ? `${date}, ${hour}:${minute}` : date;
}

export interface ExposureFacts {
  camera: string | null;
  lens: string | null;
  /** Focal length, aperture, shutter and ISO, each with its label for screen readers. */
  settings: Array<{ label: string; value: string }>;
}

/** The EXIF card's content, in the words and units photographers use. */
export function describeExposure(exif: PhotoDetail["exif"]): ExposureFacts {
  const settings: Array<{ label: string; value: string | null }> = [
    { label: "Focal length", value: exif.focalLength ? `${formatNumber(exif.focalLength)} mm` : null },
    { label: "Aperture", value: exif.aperture ? `ƒ/${formatNumber(exif.aperture)}` : null },
    { label: "Shutter", value: exif.exposureTime ? `${exif.exposureTime} s` : null },
    { label: "ISO", value: exif.iso ? `ISO ${exif.iso}` : null },
  ];
  return {
    camera: describeCamera(exif.cameraMake, exif.cameraModel),
    lens: exif.lens?.trim() || null,
    settings: settings.filter((setting): setting is { label: string; value: string } => setting.value !== null),
  };
}

/** 4.5 stays 4.5, 24.0 becomes 24, 5.599999 becomes 5.6. */
function formatNumber(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** A map of the spot on OpenStreetMap (a link the reader chooses to follow; nothing is fetched from it). */
export function mapUrl(location: { latitude: number; longitude: number }): string {
  const latitude = location.latitude.toFixed(5);
  const longitude = location.longitude.toFixed(5);
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=15/${latitude}/${longitude}`;
}
