// A photo's date taken is stored as its camera wrote it (src/photos/taken-at-input.ts): the local
// time, with an offset only when the camera recorded one. This turns it into an instant, the one
// moment in UTC, without ever changing what is stored: the recorded offset when there is one, else
// the rules of the time zone at the place it was taken (src/places/reverse-geocode.ts), else none.

const STORED = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-]\d{2}:\d{2})?$/;

/**
 * "2008-10-22T16:28:39" taken in "Europe/Rome" → "2008-10-22T14:28:39.000Z". Null when the
 * text is not a stored date taken, or when it has no offset and no valid zone is known. A time the
 * zone shows twice (clocks go back) is the first of the two; one it skips (clocks go forward) is
 * read with the offset from before the change, as a clock not yet put forward would show it.
 */
export function takenAtInstant(takenAt: string | null, timeZone: string | null): string | null {
  const match = takenAt ? STORED.exec(takenAt) : null;
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const asIfUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const offset = match[7];
  if (offset) {
    const sign = offset.startsWith("-") ? -1 : 1;
    const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
    return new Date(asIfUtc - minutes * 60_000).toISOString();
  }
  if (!timeZone) return null;
  const zoneOffset = offsetMinutesIn(timeZone);
  if (!zoneOffset) return null;
  // The offsets a day before and a day after: the same nearly always; around a change of clocks
  // each gives a reading, kept if the zone really shows this local time then.
  const before = asIfUtc - zoneOffset(asIfUtc - DAY) * 60_000;
  const after = asIfUtc - zoneOffset(asIfUtc + DAY) * 60_000;
  const real = [before, after].filter((instant) => instant + zoneOffset(instant) * 60_000 === asIfUtc);
  // Repeated hour: the first time round. Skipped hour: the clock as it read before the change.
  return new Date(real.length > 0 ? Math.min(...real) : before).toISOString();
}

const DAY = 86_400_000;

/** The zone's offset from UTC, in minutes, at an instant; null for a zone this runtime does not know. */
function offsetMinutesIn(timeZone: string): ((instant: number) => number) | null {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
  } catch {
    return null;
  }
  return (instant) => {
    const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
    const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
    return Math.round((wall - Math.floor(instant / 1000) * 1000) / 60_000);
  };
}
