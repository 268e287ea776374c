import { BlockList, isIPv4, isIPv6 } from "node:net";

/** The eight 16-bit groups of an IPv6 address in the URL standard's form (no embedded IPv4, no zone). */
function groupsOf(ipv6: string): number[] {
  const [head, tail] = ipv6.includes("::") ? ipv6.split("::") : [ipv6, null];
  const parse = (part: string | null) => (part ? part.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const [left, right] = [parse(head), parse(tail)];
  return [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
}

/** An IPv6 address in the URL standard's form (lowercase, shortest: RFC 5952). */
const urlForm = (ipv6: string) => new URL(`http://[${ipv6}]`).hostname.slice(1, -1);

/**
 * One spelling per address, or null for anything else: IPv4 in dotted decimal, an IPv4-mapped
 * IPv6 address as its IPv4, IPv6 in its shortest form. Takes what X-Forwarded-For entries carry
 * besides a bare address: [IPv6], a port after either, an IPv6 zone.
 */
export function normalizeIp(raw: string): string | null {
  let s = raw.trim();
  const bracketed = s.match(/^\[([^\]]+)\](?::\d{1,5})?$/);
  if (bracketed) {
    if (isIPv4(bracketed[1])) return null;
    s = bracketed[1];
  } else if (/^[\d.]+:\d{1,5}$/.test(s)) s = s.slice(0, s.indexOf(":"));
  if (isIPv4(s)) return s;
  s = s.replace(/%[^%]*$/, "");
  if (!isIPv6(s)) return null;
  const g = groupsOf(urlForm(s));
  const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
  return mapped ? [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join(".") : urlForm(s);
}

/**
 * What one visitor is counted as: an IPv4 address, or an IPv6 address's /64 (a subscriber's
 * usual allocation, which one client can otherwise walk through address by address).
 */
export function addressMeter(ip: string): string {
  if (isIPv4(ip)) return ip;
  const prefix = groupsOf(urlForm(ip))
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(":");
  return `${urlForm(`${prefix}::`)}/64`;
}

/** Express's names for the ranges proxies usually sit in. */
const NAMED_RANGES = new Map<string, [string, number][]>([
  [
    "loopback",
    [
      ["127.0.0.0", 8],
      ["::1", 128],
    ],
  ],
  [
    "linklocal",
    [
      ["169.254.0.0", 16],
      ["fe80::", 10],
    ],
  ],
  [
    "uniquelocal",
    [
      ["10.0.0.0", 8],
      ["172.16.0.0", 12],
      ["192.168.0.0", 16],
      ["fc00::", 7],
    ],
  ],
]);

/** An address or a CIDR range as [address, prefix length]; null for anything else. */
function rangeOf(entry: string): [string, number] | null {
  const [address, bits, extra] = entry.split("/");
  const ip = normalizeIp(address);
  if (!ip || extra !== undefined) return null;
  const max = isIPv4(ip) ? 32 : 128;
  if (bits === undefined) return [ip, max];
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max ? [ip, Number(bits)] : null;
}

/**
 * A list of addresses, CIDR ranges and the names loopback, linklocal and uniquelocal, separated
 * by commas or spaces (TRUSTED_PROXIES); throws naming the first entry that is none of these.
 */
export function parseAddressList(value: string): BlockList {
  const list = new BlockList();
  for (const entry of value.split(/[\s,]+/).filter(Boolean)) {
    const range = rangeOf(entry);
    const ranges = NAMED_RANGES.get(entry.toLowerCase()) ?? (range ? [range] : null);
    if (!ranges)
      throw new Error(
        `"${entry}" is not an address, a CIDR range (10.0.0.0/8) or one of ${[...NAMED_RANGES.keys()].join(", ")}`,
      );
    for (const [ip, prefix] of ranges) list.addSubnet(ip, prefix, isIPv4(ip) ? "ipv4" : "ipv6");
  }
  return list;
}

/** Whether `ip` (as normalizeIp spells it) is in `list`. */
export const listed = (list: BlockList, ip: string) => list.check(ip, isIPv4(ip) ? "ipv4" : "ipv6");
