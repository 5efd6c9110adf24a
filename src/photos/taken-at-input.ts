// The date and time taken, as the owner types it in the photo editor or sends it to the API, turned
// into what the EXIF reader stores (src/images/photo-metadata-reader.ts): the camera's local time,
// "2019-05-03T14:32:00", with its offset from UTC ("+02:00") only when one is known. A camera's
// clock rarely records its time zone, and a photographer correcting a date thinks in the local
// time of the place; so the local time is the truth, the offset an optional extra, and no time
// zone of the server or the browser ever moves the hour (or the day).

const TAKEN_AT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})?$/;

/** The earliest year a photograph can have been taken (the reader refuses earlier EXIF dates too). */
export const FIRST_PHOTO_YEAR = 1826;
/** The latest year accepted: a date beyond it is a typing mistake, not a photo. */
export const LAST_PHOTO_YEAR = 2200;

/**
 * "2019-05-03T14:32", "2019-05-03T14:32:10", with "Z" or "+02:00" or not, as stored
 * ("2019-05-03T14:32:00", "2019-05-03T14:32:10+02:00"; "Z" becomes "+00:00"); null when it is
 * no real date and time (31 February, 24:00, a year before photography, an offset past ±14:00).
 */
export function normaliseTakenAt(text: string): string | null {
  const match = TAKEN_AT.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number);
  const second = match[6] === undefined ? 0 : Number(match[6]);
  if (year < FIRST_PHOTO_YEAR || year > LAST_PHOTO_YEAR || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  const local = `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${String(second).padStart(2, "0")}`;
  const offset = match[7];
  if (offset === undefined) return local;
  if (offset === "Z") return `${local}+00:00`;
  const [offsetHours, offsetMinutes] = [Number(offset.slice(1, 3)), Number(offset.slice(4, 6))];
  if (offsetHours > 14 || offsetMinutes > 59 || (offsetHours === 14 && offsetMinutes > 0)) return null;
  return `${local}${offset}`;
}
