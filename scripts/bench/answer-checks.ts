// Checks a bench runs once on a request before it measures it: a wrong answer is reported, never
// timed. Shared by bench:search and bench:places.

/** What is wrong with an answer, or null when it is right. */
export type Check = (status: number, body: string) => string | null;

/** A 200 whose body holds every needle. */
export const expectText =
  (needles: string[]): Check =>
  (status, body) => {
    if (status !== 200) return `answered ${status}: ${body.slice(0, 200)}`;
    const missing = needles.filter((needle) => !body.includes(needle));
    return missing.length === 0 ? null : `the answer does not hold ${missing.join(", ")}`;
  };

/** Null when a page's photo ids are exactly the ones the seed expects, in order; else the first difference. */
export function comparePhotoIds(got: string[], want: string[]): string | null {
  if (got.length !== want.length) return `${got.length} photos, the seed says ${want.length}`;
  const first = got.findIndex((id, index) => id !== want[index]);
  return first === -1 ? null : `photo ${first} is ${got[first]}, the seed says ${want[first]}`;
}
