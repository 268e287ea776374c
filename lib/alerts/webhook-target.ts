import { lookup as dnsLookup } from "node:dns";
import { lookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { config } from "@/lib/config";
import { InvalidInput } from "@/lib/domain/errors";

/**
 * Webhook targets must be global unicast addresses: not loopback, private, shared, link-local,
 * multicast, reserved or documentation space, in either family, nor IPv6 that carries such an
 * IPv4 address (NAT64, 6to4) or any IPv4 address in the compatible and mapped forms, which would
 * reach IPv4 space past the IPv4 rules (IANA special-purpose address registries).
 */
const NOT_GLOBAL_V4 = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  NOT_GLOBAL_V4.addSubnet(net, bits, "ipv4");

/** Inside 2000::/3 (the only global unicast IPv6 space); everything outside it is refused. */
const NOT_GLOBAL_V6 = new BlockList();
for (const [net, bits] of [
  ["2001::", 23], // IETF protocol assignments: Teredo, ORCHID, benchmarking, ...
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
  ["5f00::", 16], // segment routing
] as const)
  NOT_GLOBAL_V6.addSubnet(net, bits, "ipv6");
const GLOBAL_V6 = new BlockList();
GLOBAL_V6.addSubnet("2000::", 3, "ipv6");
const NAT64 = new BlockList();
NAT64.addSubnet("64:ff9b::", 96, "ipv6");
const SIX_TO_FOUR = new BlockList();
SIX_TO_FOUR.addSubnet("2002::", 16, "ipv6");

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part counts as two). */
function ipv6Groups(ip: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  const hex = dotted
    ? ip.slice(0, dotted.index) +
      [(+dotted[1] << 8) | +dotted[2], (+dotted[3] << 8) | +dotted[4]].map((g) => g.toString(16)).join(":")
    : ip;
  const [head, tail] = hex.split("::");
  const parse = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

export function isGlobalUnicast(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(ip);
  if (family === 4) return !NOT_GLOBAL_V4.check(ip, "ipv4");
  if (family !== 6) return false;
  const g = ipv6Groups(ip);
  // NAT64's well-known prefix reaches the IPv4 address in its last 32 bits (DNS64 networks).
  if (NAT64.check(ip, "ipv6")) return isGlobalUnicast(ipv4Of(g[6], g[7]));
  if (!GLOBAL_V6.check(ip, "ipv6") || NOT_GLOBAL_V6.check(ip, "ipv6")) return false;
  // 6to4 wraps the IPv4 address in bits 16-47.
  if (SIX_TO_FOUR.check(ip, "ipv6")) return isGlobalUnicast(ipv4Of(g[1], g[2]));
  return true;
}

export const TARGET_REFUSALS = {
  credentials:
    "The webhook URL must not carry a user name or password (they would be shown wherever the alert is). " +
    "Verify our Webhook-Signature instead, or put a token of your own in the path.",
  plainHttp:
    "The webhook URL must start with https:// (plain http:// is accepted only on the embedded defaults of npm start).",
  noHost: "The webhook URL's host does not resolve.",
  notPublic:
    "The webhook URL's host must resolve to public addresses only (no private, loopback, link-local or reserved ones).",
};

/**
 * Refuses webhook targets with credentials in them (never stored, so never shown back), plain
 * http outside the embedded defaults (and local receivers: WEBHOOK_ALLOW_PRIVATE, tests), and
 * hosts that resolve to anything but global unicast addresses, unless WEBHOOK_ALLOW_PRIVATE is
 * set. The sender checks the addresses again at delivery time, since DNS can change after this.
 */
export async function checkWebhookTarget(url: string): Promise<void> {
  const target = new URL(url);
  if (target.username || target.password) throw new InvalidInput("webhook_url", TARGET_REFUSALS.credentials);
  if (config.WEBHOOK_ALLOW_PRIVATE) return;
  if (target.protocol !== "https:" && !config.onEmbeddedDefaults)
    throw new InvalidInput("webhook_url", TARGET_REFUSALS.plainHttp);
  const host = target.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new InvalidInput("webhook_url", TARGET_REFUSALS.noHost);
  }
  if (!addresses.every(isGlobalUnicast)) throw new InvalidInput("webhook_url", TARGET_REFUSALS.notPublic);
}

export class PrivateTargetError extends Error {
  constructor(host: string) {
    super(`${host} resolves to an address that is not public`);
  }
}

/**
 * The `lookup` for an outgoing webhook request: the same rule as checkWebhookTarget, applied to
 * the addresses the connection will use, so DNS cannot change between a check and the
 * connection. A non-public IP literal (which needs no lookup) throws PrivateTargetError at once.
 */
export function guardedLookup(url: URL, allowPrivate = config.WEBHOOK_ALLOW_PRIVATE): LookupFunction {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && isIP(host) && !isGlobalUnicast(host)) throw new PrivateTargetError(host);
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      if (!allowPrivate && !addresses.every((a) => isGlobalUnicast(a.address))) {
        return callback(new PrivateTargetError(hostname), "", 0);
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
