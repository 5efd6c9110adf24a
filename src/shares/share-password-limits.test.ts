import { describe, expect, it } from "vitest";
import { guesserAddressKey, sharePasswordRateLimits } from "./share-password-limits";

// SECURITY.md 60: a guesser is counted by what it cannot easily change.
describe("guesserAddressKey", () => {
  it("keeps an IPv4 address and anything that is not an address as it is", () => {
    expect(guesserAddressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(guesserAddressKey("unknown")).toBe("unknown");
  });

  it("counts every IPv6 address of one /64 as one guesser, however it is written", () => {
    const one = ["2001:db8:1:2:aaaa::1", "2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "2001:DB8:1:2::", "2001:db8:1:2:0:5efe:192.0.2.1", "2001:db8:1:2::1%eth0"];
    expect(new Set(one.map(guesserAddressKey))).toEqual(new Set(["2001:db8:1:2::/64"]));
    expect(guesserAddressKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(guesserAddressKey("::1")).toBe("0:0:0:0::/64");
    expect(guesserAddressKey("1::2:3:4:5:1.2.3.4")).toBe("1:0:2:3::/64");
  });
});

describe("sharePasswordRateLimits", () => {
  it("limits per address and link, per address, and per link far higher", () => {
    const [addressAndLink, address, link] = sharePasswordRateLimits("share-1", "2001:db8::9");
    expect(addressAndLink.key).toBe("share-password:share-1:2001:db8:0:0::/64");
    expect(address.key).toBe("share-password-address:2001:db8:0:0::/64");
    expect(link.key).toBe("share-password:share-1");
    expect(link.limit).toBeGreaterThanOrEqual(10 * addressAndLink.limit);
    expect(address.limit).toBeLessThan(link.limit);
  });
});
