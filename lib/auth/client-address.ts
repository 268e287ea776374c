import type { BlockList } from "node:net";
import { config } from "@/lib/config";
import { addressMeter, listed, normalizeIp, parseAddressList } from "./ip";
import { socketAddress } from "./socket-address";

const forwardedFor = (headers: Headers): string[] => (headers.get("x-forwarded-for") ?? "").split(",");

/**
 * Who sent a request: the address of the connection it came on, unless that is a proxy the
 * operator trusts (TRUSTED_PROXIES), whose X-Forwarded-For is then read from the right, each
 * trusted hop giving way to the address it reports, as Express's "trust proxy" does. What stands
 * left of the first untrusted address is the client's own writing and is never read; an entry
 * that is no address ends the walk at the hop that passed it on. Null where the connection's
 * address is unknown (a process not started by scripts/serve.ts).
 */
export function clientAddress(headers: Headers, trusted: BlockList = config.trustedProxies): string | null {
  let client = normalizeIp(socketAddress(headers) ?? "");
  const hops = forwardedFor(headers);
  while (client && hops.length > 0 && listed(trusted, client)) {
    const reported = normalizeIp(hops.pop()!);
    if (!reported) break;
    client = reported;
  }
  return client;
}

/**
 * The meter of a visitor without an account (a key of bounded length): their address, IPv6 by
 * its /64; every visitor shares one where the address is unknown.
 */
export function clientMeter(headers: Headers): string {
  const address = clientAddress(headers);
  return address ? addressMeter(address) : "unknown";
}

const LOOPBACK = parseAddressList("loopback");
const isLoopback = (raw: string) => {
  const ip = normalizeIp(raw);
  return ip !== null && listed(LOOPBACK, ip);
};

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A request from this machine to this machine: on a loopback connection, through loopback hops
 * only (whatever TRUSTED_PROXIES says: a local proxy relaying someone else is not this machine),
 * and addressed to a loopback name (a page elsewhere that rebinds its own name to 127.0.0.1
 * still sends its name).
 */
export function isLoopbackRequest(headers: Headers): boolean {
  const socket = socketAddress(headers);
  const hops = forwardedFor(headers).filter((hop) => hop.trim() !== "");
  if (socket === null || !isLoopback(socket) || !hops.every(isLoopback)) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${headers.get("host") ?? ""}`).hostname;
  } catch {
    return false;
  }
  return LOOPBACK_HOSTS.has(hostname);
}
