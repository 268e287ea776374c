/**
 * The digest of an alert's match set (alerts.match_digest): the count and two 32-bit sums of a
 * 64-bit hash of each address, so it does not depend on order and is computed from the token
 * positions of a cycle without building strings. A changed hash function only costs one
 * re-read of every alert's matches: a differing digest is always safe, an equal one is trusted.
 */
export type TokenHashes = { low: Uint32Array; high: Uint32Array };

/** cyrb53's two 32-bit halves of each address. */
export function hashAddresses(addresses: readonly string[]): TokenHashes {
  const low = new Uint32Array(addresses.length);
  const high = new Uint32Array(addresses.length);
  addresses.forEach((s, i) => {
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    low[i] = h1;
    high[i] = h2;
  });
  return { low, high };
}

/** Digest of the tokens at `positions`; null for the empty set (an alert without matches). */
export function matchDigest(hashes: TokenHashes, positions: readonly number[]): string | null {
  if (positions.length === 0) return null;
  let low = 0;
  let high = 0;
  for (const i of positions) {
    low = (low + hashes.low[i]) >>> 0;
    high = (high + hashes.high[i]) >>> 0;
  }
  return `${positions.length}.${low.toString(36)}.${high.toString(36)}`;
}
