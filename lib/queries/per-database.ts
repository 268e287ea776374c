import type { Db } from "@/db/client";

type Store = typeof globalThis & { __perDatabase?: Map<string, WeakMap<object, unknown>> };

/**
 * State a read path keeps per database (its pool), since ids, addresses and transaction ids name
 * something only within one. Kept on globalThis under `name`: Next.js may bundle a module once
 * per route, and the routes that read the same state must share it.
 */
export function perDatabase<T>(name: string, make: () => T): (db: Db) => T {
  const byName = ((globalThis as Store).__perDatabase ??= new Map());
  let states = byName.get(name) as WeakMap<object, T> | undefined;
  if (!states) byName.set(name, (states = new WeakMap()));
  const all = states;
  return (db) => {
    let state = all.get(db.$client);
    if (state === undefined) all.set(db.$client, (state = make()));
    return state;
  };
}

/** Drops a map's oldest entries (insertion order is age order) until at most `max` remain. */
export function dropOldest(map: Map<unknown, unknown>, max: number) {
  for (const key of map.keys()) {
    if (map.size <= max) break;
    map.delete(key);
  }
}
