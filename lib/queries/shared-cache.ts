import type { Db } from "@/db/client";
import { type Cache, databaseCache, processCache } from "@/lib/cache";

/**
 * The shared views (shared-views.ts) as every visitor reads them: one cache for all, each view
 * loaded at most once per data version (any write by the worker moves it: a block, a metrics
 * refresh), so a thousand visitors of a view cost what one does. An entry also expires after
 * `maxAgeMs`, for what changes without the data version (the indexer's liveness in the status,
 * fields measured against the present such as age_hours). Simultaneous misses share one load.
 */
export const MAX_AGE_MS = 30_000;
const views = processCache<string, Promise<unknown>>({ name: "sharedViews", max: 5_000, ttlMs: MAX_AGE_MS });

/** `load`'s answer for `key` at data version `version`, shared with every other reader of the same key. */
export const sharedRead = <T>(key: string, version: number, load: () => Promise<T>, maxAgeMs?: number): Promise<T> =>
  (views.at(version) as Cache<string, Promise<T>>).load(key, load, maxAgeMs);

/**
 * `read`'s latest answer of a database, read again at most every `everyMs` and shared meanwhile (the
 * data version, which every shared read needs: one query per interval, not one per visitor; each
 * database's its own, a replica's behind the primary's). A read that throws is tried again by the
 * next caller. `name` names its cache.
 */
export function polled<T>(name: string, read: (db: Db) => Promise<T>, everyMs: number): (db: Db) => Promise<T> {
  const last = databaseCache<"", Promise<T>>({ name, max: 1, ttlMs: everyMs });
  return (db) => last(db).load("", () => read(db));
}

/** A query string in one order, so `a=1&b=2` and `b=2&a=1` share an entry. */
export const canonicalSearch = (search: URLSearchParams): string =>
  [...search]
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .sort()
    .join("&");
