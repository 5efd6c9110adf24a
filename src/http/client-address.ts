import { getEnv } from "@/src/config/env";

interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The caller's IP address, for rate limits and logs. Next.js's server appends the socket address
 * to X-Forwarded-For, so its last entry is the peer we can vouch for; the left-most entry is only
 * trusted behind a reverse proxy (TRUST_PROXY=true), since any client can send that header.
 */
export function getClientAddress(headers: HeaderReader): string {
  const forwarded = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if (forwarded.length === 0) return "unknown";
  const address = getEnv().TRUST_PROXY ? forwarded[0] : forwarded[forwarded.length - 1];
  return address.slice(0, 64);
}
