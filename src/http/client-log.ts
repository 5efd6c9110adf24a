import "server-only";
import { FixedWindowLimiter } from "@/src/auth/fixed-window-limiter";
import { getLogger } from "@/src/log/logger";
import { getClientAddress } from "./client-address";
import { jsonError } from "./json-error";
import { CONTROL_CHARACTERS } from "@/src/validation/input-text";
import { processSingleton } from "@/src/config/process-singleton";

/** next-auth's client logger only ever sends these; anything else is refused, not logged. */
const ALLOWED_LEVELS = new Set(["error", "warn", "debug"]);
const MAXIMUM_BODY_BYTES = 8 * 1024;
const MAXIMUM_FIELDS = 10;
const MAXIMUM_VALUE_LENGTH = 500;
const POSTS_PER_MINUTE_PER_ADDRESS = 30;

function getLimiter(): FixedWindowLimiter {
  return processSingleton("client-log-limiter", () => new FixedWindowLimiter(POSTS_PER_MINUTE_PER_ADDRESS, 60_000));
}

// Control characters would let a client forge extra lines in a plain-text log viewer.
function clean(value: string): string {
  return value.replace(CONTROL_CHARACTERS, " ").slice(0, MAXIMUM_VALUE_LENGTH);
}

async function readFields(request: Request): Promise<Map<string, string> | null> {
  const text = (await request.text()).slice(0, MAXIMUM_BODY_BYTES);
  const contentType = request.headers.get("content-type") ?? "";
  const entries: Array<[string, unknown]> = [];
  if (contentType.includes("application/json")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
      entries.push(...Object.entries(parsed));
    } catch {
      return null;
    }
  } else {
    entries.push(...new URLSearchParams(text).entries());
  }
  const fields = new Map<string, string>();
  for (const [key, value] of entries.slice(0, MAXIMUM_FIELDS + 2)) {
    fields.set(clean(key).slice(0, 50), clean(typeof value === "string" ? value : JSON.stringify(value) ?? ""));
  }
  return fields;
}

/**
 * POST /api/auth/_log – next-auth's client reports its errors here (as a form post or a beacon).
 * Rate-limited per address, level allow-listed, sizes capped; answers {} like next-auth does.
 */
export async function handleClientLog(request: Request): Promise<Response> {
  const { isAllowed, retryAfterSeconds } = getLimiter().take(getClientAddress(request.headers));
  if (!isAllowed) {
    return jsonError("RATE_LIMITED", "Too many log reports.", { "Retry-After": String(retryAfterSeconds) });
  }
  const fields = await readFields(request);
  const level = fields?.get("level");
  if (!fields || !level || !ALLOWED_LEVELS.has(level)) {
    return jsonError("BAD_REQUEST", "A log report needs a level of error, warn or debug.");
  }
  const code = fields.get("code") ?? "UNKNOWN";
  fields.delete("level");
  fields.delete("code");
  const details = Object.fromEntries([...fields].slice(0, MAXIMUM_FIELDS));
  const logger = getLogger().child({ source: "client", module: "next-auth" });
  const message = `client ${code.slice(0, 100)}`;
  if (level === "error") logger.error({ code, details }, message);
  else if (level === "warn") logger.warn({ code, details }, message);
  else logger.debug({ code, details }, message);
  return Response.json({});
}
