import { createHash, timingSafeEqual } from "node:crypto";
import { readBearerAuthorization } from "@/src/auth/bearer-authorization";

export type MetricsAccess = "metrics off" | "refused" | "allowed";

/**
 * Who may read /metrics: only a caller sending `Authorization: Bearer <METRICS_TOKEN>`. Unset, the
 * metrics are off. Compared as SHA-256 digests with timingSafeEqual, so the time taken tells
 * nothing about how much of a guess was right, whatever its length; a header that is not a
 * well-formed Bearer token (missing, another scheme, over 256 characters) is refused unread.
 */
export function decideMetricsAccess(configuredToken: string | undefined, authorization: string | null): MetricsAccess {
  if (!configuredToken) return "metrics off";
  const bearer = readBearerAuthorization(authorization);
  if (bearer.kind !== "bearer") return "refused";
  return timingSafeEqual(digest(bearer.credentials), digest(configuredToken)) ? "allowed" : "refused";
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
