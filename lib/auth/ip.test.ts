import { describe, expect, it } from "vitest";
import { addressMeter, listed, normalizeIp, parseAddressList } from "./ip";

describe("addresses", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    [" 203.0.113.9 ", "203.0.113.9"],
    ["203.0.113.9:4711", "203.0.113.9"],
    ["2001:DB8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["[2001:db8::1]:443", "2001:db8::1"],
    ["[2001:db8::1]", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
    ["::ffff:198.51.100.4", "198.51.100.4"],
    ["::ffff:c633:6404", "198.51.100.4"],
  ])("spell %j one way: %j", (raw, spelt) => expect(normalizeIp(raw)).toBe(spelt));

  it.each([
    "",
    "unknown",
    "203.0.113",
    "203.0.113.9.1",
    "0203.0.113.9",
    "1.2.3.4/8",
    "2001:db8::1::2",
    "[203.0.113.9]",
  ])("refuse %j", (raw) => expect(normalizeIp(raw)).toBeNull());

  it("refuse a long string", () => expect(normalizeIp("x".repeat(6000))).toBeNull());

  it("meter IPv4 by address and IPv6 by its /64, so one subscriber cannot walk through addresses", () => {
    expect(addressMeter("203.0.113.9")).toBe("203.0.113.9");
    expect(addressMeter("2001:db8:aa:bb:1:2:3:4")).toBe("2001:db8:aa:bb::/64");
    expect(addressMeter("2001:db8:aa:bb::ffff")).toBe("2001:db8:aa:bb::/64");
    expect(addressMeter("2001:db8::1")).toBe("2001:db8::/64");
  });
});

describe("address lists (TRUSTED_PROXIES)", () => {
  it("take addresses, CIDR ranges and Express's names, separated by commas or spaces", () => {
    const list = parseAddressList("loopback, 10.0.0.0/8 2001:db8:1::/48,198.51.100.4");
    for (const ip of ["127.0.0.1", "127.9.9.9", "::1", "10.200.0.1", "2001:db8:1:ff::1", "198.51.100.4"])
      expect([ip, listed(list, ip)]).toEqual([ip, true]);
    for (const ip of ["11.0.0.1", "198.51.100.5", "2001:db8:2::1", "::2"])
      expect([ip, listed(list, ip)]).toEqual([ip, false]);
    expect(listed(parseAddressList("uniquelocal"), "192.168.4.4")).toBe(true);
    expect(listed(parseAddressList("linklocal"), "fe80::4")).toBe(true);
    expect(listed(parseAddressList(""), "127.0.0.1")).toBe(false);
  });

  it.each([
    "localhost",
    "10.0.0.0/33",
    "::/129",
    "10.0.0.0/8/1",
    "constructor",
    "10.0.0.0/x",
  ])("refuse %j, naming it", (entry) => {
    expect(() => parseAddressList(`loopback, ${entry}`)).toThrow(
      `"${entry}" is not an address, a CIDR range (10.0.0.0/8) or one of loopback, linklocal, uniquelocal`,
    );
  });
});
