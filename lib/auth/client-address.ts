import { BlockList, isIP } from "node:net";

/**
 * Who sent a request, from its X-Forwarded-For: Next.js fills the header from the socket when a
 * request arrives without one, and a proxy in front appends the address it saw. The last entry
 * is therefore the nearest hop's view (a client that connects directly may write the header
 * itself: the sign-in throttle keys on it only as a second limit, after the per-address one).
 */
function forwardedFor(headers: Headers): string[] {
  return (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
}

export function clientAddress(headers: Headers): string {
  return forwardedFor(headers).at(-1) ?? "unknown";
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

export function isLoopbackAddress(address: string): boolean {
  const ip = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  const family = isIP(ip);
  return family !== 0 && LOOPBACK.check(ip, family === 4 ? "ipv4" : "ipv6");
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A request from this machine to this machine: every hop it passed loopback, and addressed to a
 * loopback name (a page elsewhere that rebinds its own name to 127.0.0.1 still sends its name).
 */
export function isLoopbackRequest(headers: Headers): boolean {
  const hops = forwardedFor(headers);
  if (hops.length === 0 || !hops.every(isLoopbackAddress)) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${headers.get("host") ?? ""}`).hostname;
  } catch {
    return false;
  }
  return LOOPBACK_HOSTS.has(hostname);
}
