import "server-only";
import { isIPv6 } from "node:net";
import type { RateLimitRule } from "@/src/auth/rate-limiter";

/**
 * How guessing a share link's password is slowed (SECURITY.md 60): the guessers, not the link.
 * A link-wide limit low enough to matter is reached by a handful of guessers at once, and then
 * refuses the people the link was sent to; so the limits that bite are per address, and the
 * link-wide one is a last resort far above what a few guessers can reach.
 *
 * Refused tries are counted against no rule (takeRateLimitSlots gives back what it took), so a
 * guesser hammering past its own limit never pushes the link towards its ceiling.
 */

// A person mistyping gets five tries, then waits a little.
const TRIES_PER_ADDRESS_AND_LINK = 5;
const ADDRESS_AND_LINK_WINDOW_SECONDS = 5 * 60;

// One address across every link, in an hour: a guesser who waits out the five-minute window, or
// moves from link to link, gets no more than this. Enough for a person with several links to open.
const TRIES_PER_ADDRESS = 20;
const ADDRESS_WINDOW_SECONDS = 60 * 60;

// The last resort, from everywhere, in an hour: reached only by 15 or more addresses each at its
// full allowance (the old 30 was reached by 6), and it bounds the argon2id work one link can cost.
const TRIES_PER_LINK = 300;
const LINK_WINDOW_SECONDS = 60 * 60;

/**
 * The part of an address that names one client: an IPv6 client usually holds a whole /64 and can
 * take a fresh address from it for every try, so IPv6 is counted by its /64 network.
 */
export function guesserAddressKey(address: string): string {
  if (!isIPv6(address)) return address;
  // An embedded IPv4 address is the last 32 bits (two groups), past the /64; a zone is local.
  const plain = address.toLowerCase().replace(/%.*$/, "").replace(/\d+\.\d+\.\d+\.\d+$/, "0:0");
  const [head, tail] = plain.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** The rules a password try is counted against, the narrowest first. */
export function sharePasswordRateLimits(shareId: string, address: string): RateLimitRule[] {
  const guesser = guesserAddressKey(address);
  return [
    { key: `share-password:${shareId}:${guesser}`, limit: TRIES_PER_ADDRESS_AND_LINK, windowSeconds: ADDRESS_AND_LINK_WINDOW_SECONDS },
    { key: `share-password-address:${guesser}`, limit: TRIES_PER_ADDRESS, windowSeconds: ADDRESS_WINDOW_SECONDS },
    { key: `share-password:${shareId}`, limit: TRIES_PER_LINK, windowSeconds: LINK_WINDOW_SECONDS },
  ];
}
