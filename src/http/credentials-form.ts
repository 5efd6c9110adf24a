import { AppError } from "@/src/errors/app-error";
import { findUnstorableText } from "@/src/validation/input-text";

// An e-mail (254), a password (1024), a CSRF token, a callback URL (2048) and next-auth's flags,
// percent-encoded: well under this.
export const MAXIMUM_CREDENTIALS_BODY_BYTES = 16 * 1024;

const FORM_MEDIA_TYPE = "application/x-www-form-urlencoded";

/**
 * Whether the Content-Type is exactly a URL-encoded form in UTF-8. next-auth decides how to read a
 * body with `includes("application/json")` and `includes("application/x-www-form-urlencoded")`,
 * so anything else (JSON, multipart, text, a parameter that mentions another type, another
 * charset, two types joined by a comma) could be read one way by us and another way by it.
 */
export function isUtf8FormContentType(contentType: string | null): boolean {
  if (!contentType) return false;
  const [mediaType, ...parameters] = contentType.split(";").map((part) => part.trim().toLowerCase());
  if (mediaType !== FORM_MEDIA_TYPE) return false;
  if (parameters.length === 0) return true;
  return parameters.length === 1 && (parameters[0] === "charset=utf-8" || parameters[0] === 'charset="utf-8"');
}

/**
 * Reads the fields of a credentials POST once, as next-auth will read them: a URL-encoded form with
 * each field at most once. next-auth keeps the last of a repeated field, a limiter reading the
 * first would count another account than the one whose password is checked; so any repeat is
 * refused, whichever field it is, and so is a field no database could store.
 */
export function parseCredentialsForm(contentType: string | null, body: string): URLSearchParams {
  if (!isUtf8FormContentType(contentType)) {
    throw new AppError("BAD_REQUEST", "Send the sign-in as application/x-www-form-urlencoded (UTF-8).");
  }
  const fields = new URLSearchParams(body);
  const names = [...fields.keys()];
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) {
    throw new AppError("BAD_REQUEST", `The sign-in form names the field "${repeated.slice(0, 50)}" more than once.`);
  }
  // An e-mail with a NUL is looked up, counted and audited: no database stores it (SECURITY.md 58).
  if (findUnstorableText([...fields]) !== undefined) throw new AppError("BAD_REQUEST", "The sign-in form holds a NUL character.");
  return fields;
}

/** The body as text, refusing it while it streams once it passes the limit. */
export async function readCredentialsBody(request: Request): Promise<string> {
  const declaredLength = Number(request.headers.get("content-length") ?? "0");
  if (declaredLength > MAXIMUM_CREDENTIALS_BODY_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "The sign-in request is too large.");
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAXIMUM_CREDENTIALS_BODY_BYTES) {
      await reader.cancel();
      throw new AppError("PAYLOAD_TOO_LARGE", "The sign-in request is too large.");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
