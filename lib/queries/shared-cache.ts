/**
 * The market views anyone may read (the public pages and the dashboard's market routes), read
 * through one cache shared by every visitor: a view is loaded from the database at most once per
 * TTL however many people look at it, so public browsing costs each visitor a cached read.
 * Entries are promises, so simultaneous misses share one load; a load that throws is not kept.
 * Kept on globalThis because Next.js may bundle this module once per route, and the pages and
 * the JSON routes must share one cache.
 */
const TTL_MS = 2_000;
const MAX_ENTRIES = 5_000;

type Entry = { at: number; value: Promise<unknown> };
const store = globalThis as typeof globalThis & { __sharedViewCache?: Map<string, Entry> };
/** Insertion order is age order: every set deletes the key first. */
const entries = (store.__sharedViewCache ??= new Map());

function evictExpired(now: number) {
  for (const [key, e] of entries) {
    if (now - e.at < TTL_MS && entries.size < MAX_ENTRIES) break;
    entries.delete(key);
  }
}

/** `load`'s answer for `key`, shared with every other reader of the same key for TTL_MS. */
export function sharedRead<T>(key: string, load: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = entries.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.value as Promise<T>;
  entries.delete(key);
  evictExpired(now);
  const value = Promise.resolve().then(load);
  const entry = { at: now, value };
  entries.set(key, entry);
  value.catch(() => entries.get(key) === entry && entries.delete(key));
  return value;
}

/** A query string in one order, so `a=1&b=2` and `b=2&a=1` share an entry. */
export const canonicalSearch = (search: URLSearchParams): string =>
  [...search]
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .sort()
    .join("&");
