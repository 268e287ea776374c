/**
 * Read-through cache of chain-derived responses, keyed by the data version that the auth
 * round trip returns: any write by the worker changes the version and empties the cache, so a
 * cached answer is never staler than the database. Entries also expire after a second, since
 * answers carry time-relative fields (age_hours).
 */
const MAX_ENTRIES = 2_000;
const TTL_MS = 1_000;
let version = -1;
const entries = new Map<string, { at: number; value: Promise<unknown> }>();

export function cached<T>(dataVersion: number, key: string, load: () => Promise<T>): Promise<T> {
  if (dataVersion !== version) {
    entries.clear();
    version = dataVersion;
  }
  const now = Date.now();
  const hit = entries.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.value as Promise<T>;
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  const value = load();
  const entry = { at: now, value };
  entries.set(key, entry);
  // A failed load must not be served again.
  value.catch(() => entries.get(key) === entry && entries.delete(key));
  return value;
}
