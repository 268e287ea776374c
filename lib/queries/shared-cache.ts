/**
 * The shared views (shared-views.ts) as every visitor reads them: one cache for all, each view
 * loaded at most once per data version (any write by the worker moves it: a block, a metrics
 * refresh), so a thousand visitors of a view cost what one does. An entry also expires after
 * `maxAgeMs`, for what changes without the data version (the indexer's liveness in the status,
 * fields measured against the present such as age_hours). Entries are promises, so simultaneous
 * misses share one load; a load that throws is not kept. Kept on globalThis because Next.js may
 * bundle this module once per route, and the pages and the JSON routes must share one cache.
 */
const MAX_ENTRIES = 5_000;
export const MAX_AGE_MS = 30_000;

type Entry = { at: number; version: number; maxAgeMs: number; value: Promise<unknown> };
type Store = { version: number; entries: Map<string, Entry> };
const global = globalThis as typeof globalThis & { __sharedViewCache?: Store };
/** Insertion order is age order: every set deletes the key first. */
const store = (global.__sharedViewCache ??= { version: -1, entries: new Map() });

function isFresh(e: Entry | undefined, version: number, now: number): e is Entry {
  return e !== undefined && e.version === version && now - e.at < e.maxAgeMs;
}

/** `load`'s answer for `key` at data version `version`, shared with every other reader of the same key. */
export function sharedRead<T>(key: string, version: number, load: () => Promise<T>, maxAgeMs = MAX_AGE_MS): Promise<T> {
  const { entries } = store;
  // A version older than the last seen (a replica behind another, db/read-replicas.ts): read, not kept.
  if (version < store.version) return Promise.resolve().then(load);
  if (version !== store.version) {
    entries.clear();
    store.version = version;
  }
  const now = Date.now();
  const hit = entries.get(key);
  if (isFresh(hit, version, now)) return hit.value as Promise<T>;
  entries.delete(key);
  for (const [old, e] of entries) {
    if (entries.size < MAX_ENTRIES && isFresh(e, version, now)) break;
    entries.delete(old);
  }
  const value = Promise.resolve().then(load);
  const entry = { at: now, version, maxAgeMs, value };
  entries.set(key, entry);
  value.catch(() => entries.get(key) === entry && entries.delete(key));
  return value;
}

/**
 * `read`'s latest answer, read again at most every `everyMs` and shared meanwhile (the data
 * version, which every shared read needs: one query per interval, not one per visitor). A read
 * that throws is tried again by the next caller.
 */
export function polled<T>(read: () => Promise<T>, everyMs: number): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (last && now - last.at < everyMs) return last.value;
    const current = { at: now, value: read() };
    last = current;
    current.value.catch(() => last === current && (last = undefined));
    return current.value;
  };
}

/** A query string in one order, so `a=1&b=2` and `b=2&a=1` share an entry. */
export const canonicalSearch = (search: URLSearchParams): string =>
  [...search]
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .sort()
    .join("&");
