import { getDomain } from "tldts";

/**
 * A circuit breaker per webhook target (breakerKey: an account's receivers under one registrable
 * domain): after `threshold` failures in a row (no answer, no connection, 5xx) the target is
 * open, and deliveries to it are put off without a request, until
 * `cooldownMs` has passed; then one delivery is let through as a trial (half open), whose
 * success closes the circuit and whose failure opens it again for twice as long, up to
 * `maxCooldownMs`. One slow or dead receiver then costs a few timeouts, not one per message.
 * State is per sender process; each learns on its own.
 */
export type BreakerOptions = { threshold?: number; cooldownMs?: number; maxCooldownMs?: number; now?: () => number };

type HostState = { failures: number; openUntil: number; cooldownMs: number };

export class HostBreaker {
  private readonly hosts = new Map<string, HostState>();
  private readonly threshold: number;
  private readonly cooldownMs: number;
  private readonly maxCooldownMs: number;
  private readonly now: () => number;

  constructor(opts: BreakerOptions = {}) {
    this.threshold = opts.threshold ?? 3;
    this.cooldownMs = opts.cooldownMs ?? 60_000;
    this.maxCooldownMs = opts.maxCooldownMs ?? 30 * 60_000;
    this.now = opts.now ?? Date.now;
  }

  /** False while the host's circuit is open (deliveries to it wait). */
  allows(host: string): boolean {
    const state = this.hosts.get(host);
    return !state || state.openUntil <= this.now();
  }

  succeeded(host: string): void {
    this.hosts.delete(host);
  }

  failed(host: string): void {
    const state = this.hosts.get(host) ?? { failures: 0, openUntil: 0, cooldownMs: this.cooldownMs };
    state.failures++;
    if (state.failures >= this.threshold) {
      // A failed trial after a cooldown (half open) opens the circuit for twice as long.
      if (state.openUntil > 0) state.cooldownMs = Math.min(state.cooldownMs * 2, this.maxCooldownMs);
      state.openUntil = this.now() + state.cooldownMs;
    }
    this.hosts.set(host, state);
  }
}

/**
 * The registrable domain of a webhook URL's host (the public suffix list's, private suffixes
 * included: one app under a shared hosting suffix is its own domain); an IP address, or a name
 * the list gives no domain for, is its own. Subdomains and ports do not count: names minted under
 * a wildcard record, or ports of one machine, are one receiver that keeps failing.
 */
export function webhookDomain(url: string): string {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return url;
  }
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

/**
 * The breaker's key of an account's webhook: the account and the URL's registrable domain. Per
 * account, so one account's failing receivers never put off another's deliveries to the same
 * domain (a shared provider's, say).
 */
export const breakerKey = (accountId: string, url: string) => `${accountId} ${webhookDomain(url)}`;
