import type { Db } from "@/db/client";
import { config } from "@/lib/config";

/**
 * The one cache of the read side (every process-level cache is one of these, listed with what
 * earns it in docs/architecture.md's "Caches"). An entry is a value or a promise of one: a
 * promise is shared by the readers that ask while it loads, and dropped if it rejects. A cache
 * holds at most `max` (entries, or units of `weight`), dropping the oldest first (insertion order,
 * or last use with `lru`); an entry expires after `ttlMs` when given; `at(version)` empties the
 * cache when the data version moves, for caches of what any write may change.
 */
export type CacheOptions<V> = {
  /** Its name in the docs' table and in CACHE_OFF. */
  name: string;
  /** The most it holds, in units of `weight`. */
  max: number;
  /** What an entry counts against `max` (a promise's value once it resolves): 1 unless given. */
  weight?: (value: Awaited<V>) => number;
  /** How long an entry holds, for what changes without the data version. */
  ttlMs?: number;
  /** Whether a hit makes an entry the newest, so the least recently used go first. */
  lru?: boolean;
};

type Entry<V> = { value: V; at: number; ttlMs: number; weight: number };

export class Cache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private total = 0;
  private version: number | undefined;
  private older: Cache<K, V> | undefined;

  /** `off`: keeps nothing, for the benchmarks to measure what the cache earns (CACHE_OFF names it). */
  constructor(
    private readonly options: CacheOptions<V>,
    readonly off = config.CACHE_OFF.has(options.name),
  ) {}

  get name() {
    return this.options.name;
  }

  get size() {
    return this.entries.size;
  }

  /**
   * This cache for data version `version`: emptied first when the version moved on. An older one (a
   * replica behind another, db/read-replicas.ts) reads through a cache that keeps nothing, so its
   * reads neither empty the newer version's entries nor mix into them.
   */
  at(version: number): Cache<K, V> {
    if (this.version !== undefined && version < this.version) return (this.older ??= new Cache(this.options, true));
    if (version !== this.version) {
      this.clear();
      this.version = version;
    }
    return this;
  }

  /** `key`'s value while it holds. */
  get(key: K): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (Date.now() - e.at >= e.ttlMs) {
      this.drop(key);
      return undefined;
    }
    if (this.options.lru) {
      this.entries.delete(key);
      this.entries.set(key, e);
    }
    return e.value;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  /** Keeps `value` for `key` (for `ttlMs`, when the cache's does not suit it), the oldest dropped beyond the bound. */
  set(key: K, value: V, ttlMs = this.options.ttlMs ?? Number.POSITIVE_INFINITY): void {
    if (this.off) return;
    this.drop(key);
    const entry: Entry<V> = { value, at: Date.now(), ttlMs, weight: 0 };
    this.entries.set(key, entry);
    if (value instanceof Promise) {
      value.then(
        (settled) => this.entries.get(key) === entry && this.weigh(entry, settled),
        () => this.entries.get(key) === entry && this.drop(key),
      );
    } else this.weigh(entry, value as Awaited<V>);
  }

  delete(key: K): void {
    this.drop(key);
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  /** `key`'s value, or `load`'s (kept, shared while it loads; a load that throws is not kept). */
  load<T>(this: Cache<K, Promise<T>>, key: K, load: () => Promise<T>, ttlMs?: number): Promise<T> {
    const hit = this.get(key);
    if (hit) return hit;
    const value = Promise.resolve().then(load);
    this.set(key, value, ttlMs);
    return value;
  }

  private weigh(entry: Entry<V>, value: Awaited<V>) {
    entry.weight = this.options.weight?.(value) ?? 1;
    this.total += entry.weight;
    const now = Date.now();
    // Expired entries go first, then the oldest until the bound holds (the newest entry stays).
    for (const [key, e] of this.entries) {
      if (e === entry || (this.total <= this.options.max && now - e.at < e.ttlMs)) break;
      this.drop(key);
    }
  }

  private drop(key: K) {
    const e = this.entries.get(key);
    if (e === undefined) return;
    this.total -= e.weight;
    this.entries.delete(key);
  }
}

type Registry = typeof globalThis & { __caches?: Map<string, unknown> };
/**
 * Caches are kept on globalThis by name: Next.js may bundle a module once per route, and the
 * routes that read the same state must share it.
 */
const registry = () => ((globalThis as Registry).__caches ??= new Map());

/** A cache of this process. */
export function processCache<K, V>(options: CacheOptions<V>): Cache<K, V> {
  const all = registry();
  let cache = all.get(options.name) as Cache<K, V> | undefined;
  if (!cache) all.set(options.name, (cache = new Cache(options)));
  return cache;
}

/**
 * State a read path keeps per database (its pool), for what names something only within one:
 * ids, addresses, transaction ids, data versions. Kept under `name`, as caches are.
 */
export function perDatabase<T>(name: string, make: () => T): (db: Db) => T {
  const all = registry();
  let states = all.get(name) as WeakMap<object, T> | undefined;
  if (!states) all.set(name, (states = new WeakMap()));
  const byPool = states;
  return (db) => {
    let state = byPool.get(db.$client);
    if (state === undefined) byPool.set(db.$client, (state = make()));
    return state;
  };
}

/** A cache per database (perDatabase). */
export const databaseCache = <K, V>(options: CacheOptions<V>): ((db: Db) => Cache<K, V>) =>
  perDatabase(options.name, () => new Cache<K, V>(options));
