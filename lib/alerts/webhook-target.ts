import { lookup as dnsLookup } from "node:dns";
import { lookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { config } from "@/lib/config";
import { invalidParam } from "@/lib/api/errors";

/** Address ranges a webhook must not reach: loopback, private, link-local, unspecified. */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16],
  ["172.16.0.0", 12], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) PRIVATE.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8]] as const) {
  PRIVATE.addSubnet(net, bits, "ipv6");
}

export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return PRIVATE.check(mapped[1], "ipv4");
  return PRIVATE.check(ip, family === 4 ? "ipv4" : "ipv6");
}

/**
 * Refuses webhook targets that resolve to private, loopback or link-local addresses, unless
 * WEBHOOK_ALLOW_PRIVATE is set (tests and local development). The sender checks again at
 * delivery time, since DNS can change after this check.
 */
export async function checkWebhookTarget(url: string): Promise<void> {
  if (config.WEBHOOK_ALLOW_PRIVATE) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw invalidParam("webhook_url", "webhook_url: the host does not resolve.");
  }
  if (addresses.some(isPrivateAddress)) {
    throw invalidParam("webhook_url", "webhook_url: private, loopback and link-local addresses are not allowed.");
  }
}

export class PrivateTargetError extends Error {
  constructor(host: string) {
    super(`${host} resolves to a private, loopback or link-local address`);
  }
}

/**
 * The `lookup` for an outgoing webhook request: the same rule as checkWebhookTarget, applied to
 * the addresses the connection will use, so DNS cannot change between a check and the
 * connection. A private IP literal (which needs no lookup) throws PrivateTargetError at once.
 */
export function guardedLookup(url: URL, allowPrivate = config.WEBHOOK_ALLOW_PRIVATE): LookupFunction {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && isIP(host) && isPrivateAddress(host)) throw new PrivateTargetError(host);
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
        return callback(new PrivateTargetError(hostname), "", 0);
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
