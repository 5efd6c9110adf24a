import { AppError } from "@/src/errors/app-error";

/** Next.js's own limit for a server action's body (`serverActions.bodySizeLimit`, unset here). */
export const SERVER_ACTION_BODY_LIMIT_BYTES = 1024 * 1024;

// Nesting no argument of ours comes near; deeper replies only cost React's decoder stack.
const MAXIMUM_DEPTH = 64;

// React's decodeReply counts "slots" in an argument list of more than one element (each array's
// length + 1, each string's length) and throws past a million (its `arraySizeLimit`), which
// Next.js answers with 500: two arguments of 500,000 characters each fit in the 1 MB body limit and
// still broke every two-argument action. Counted here for every list, whatever its length.
const MAXIMUM_SLOTS = 1_000_000;

// The strings React's encodeReply writes for values that JSON has no word for and that need no
// row of their own: an escaped "$", undefined, the non-finite numbers, -0, dates and big integers.
// Every other "$…" string points at another row of the reply (a Map, Set, FormData, Promise,
// stream, server reference, temporary reference or shared object).
const INLINE_VALUE = /^\$(\$|undefined$|NaN$|Infinity$|-Infinity$|-0$|D|n-?\d+$)/;

/**
 * Why a server action's reply body would make Next.js answer 500, or null when it is fine to
 * decode. Next.js decodes the body (React's `decodeReply`) before any code of ours runs, and
 * answers every failure of that decode with a 500: a body that is no JSON, a body over its size
 * limit, a reference to a row the body lacks or of the wrong kind. So the interceptor asks this
 * first and refuses such a body with 400 (413 when too large).
 *
 * The rule is an allow-list: the root row is a JSON array (the argument list) of JSON values and
 * the inline forms above, nested at most 64 deep and of at most a million characters and array
 * elements together (React's own limit); references to other rows are refused, since our
 * actions take only such values. An action that takes a FormData, File, Map or Promise would need
 * this to learn to check those rows.
 */
export async function findServerActionBodyError(contentType: string, body: ArrayBuffer): Promise<AppError | null> {
  if (body.byteLength >= SERVER_ACTION_BODY_LIMIT_BYTES) {
    return new AppError("PAYLOAD_TOO_LARGE", "A server action's arguments may take at most 1 MB.");
  }
  if (!/^multipart\/form-data/i.test(contentType)) return findArgumentListError(new TextDecoder().decode(body));
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    return new AppError("BAD_REQUEST", "The server action's form body is not valid multipart.");
  }
  // React reads the argument list from the form's field "0"; other fields are rows it points at.
  const root = form.get("0");
  if (typeof root !== "string") return new AppError("BAD_REQUEST", "The server action's form body has no argument list.");
  return findArgumentListError(root);
}

/** Why the root row of a reply is not a plain argument list (see findServerActionBodyError), or null. */
export function findArgumentListError(text: string): AppError | null {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return new AppError("BAD_REQUEST", "The server action's arguments are not valid JSON.");
  }
  if (!Array.isArray(root)) return new AppError("BAD_REQUEST", "The server action's arguments are not a list.");
  // Walked with a stack of our own, so a deep body cannot overflow ours either.
  const pending: Array<{ value: unknown; depth: number }> = [{ value: root, depth: 1 }];
  let slots = 0;
  while (pending.length > 0) {
    const { value, depth } = pending.pop() as { value: unknown; depth: number };
    slots += typeof value === "string" ? value.length : Array.isArray(value) ? value.length + 1 : 0;
    if (slots > MAXIMUM_SLOTS) return new AppError("PAYLOAD_TOO_LARGE", "A server action's arguments may hold at most a million characters.");
    if (typeof value === "string") {
      if (value.startsWith("$") && !INLINE_VALUE.test(value)) {
        return new AppError("BAD_REQUEST", "The server action's arguments refer to values this action does not take.");
      }
    } else if (typeof value === "object" && value !== null) {
      if (depth > MAXIMUM_DEPTH) return new AppError("BAD_REQUEST", "The server action's arguments are nested too deeply.");
      for (const child of Object.values(value)) pending.push({ value: child, depth: depth + 1 });
    }
  }
  return null;
}
