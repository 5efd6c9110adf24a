import "server-only";
import { headers } from "next/headers";
import { type RequestOrigin, runWithRequestOrigin, toRequestOrigin } from "@/src/audit/request-context";
import { getClientAddress } from "./client-address";

interface HeaderReader {
  get(name: string): string | null;
}

/** Where a request came from, for the audit log: the client address by the trusted-proxy rules, and the user agent. */
export function requestOrigin(requestHeaders: HeaderReader): RequestOrigin {
  return toRequestOrigin(getClientAddress(requestHeaders), requestHeaders.get("user-agent"));
}

/**
 * For server actions that change something: runs `work` with the calling request's origin, so
 * its audit rows record the address and user agent as API handlers' do. Use inside the action.
 */
export async function runActionWithOrigin<T>(work: () => Promise<T>): Promise<T> {
  return runWithRequestOrigin(requestOrigin(await headers()), work);
}
