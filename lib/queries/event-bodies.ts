import type { Db } from "@/db/client";

/**
 * Events as PostgreSQL serialised them, less `confirmed`, by id: an event row is never updated
 * and its id is never used again (a reorg deletes it and keeps a tombstone), so its
 * serialisation holds for good except `confirmed`, which each response sets from the head it
 * read. The newest events, which every consumer of the stream reads, are then serialised once,
 * not once per request and filter. One cache per database (its pool), since ids are only unique
 * within one; kept on globalThis because Next.js may bundle this module once per route.
 */
const MAX_BODIES = 100_000;

type Bodies = Map<string, string>;
const store = globalThis as typeof globalThis & { __eventBodies?: WeakMap<object, Bodies> };
const caches = (store.__eventBodies ??= new WeakMap());

/** A body is JSON object text without its closing brace, so that `confirmed` can follow it. */
export type EventBody = { id: string; body: string };

/**
 * The bodies of `ids` (`variant`: which fields they hold), reading only those not kept yet with
 * `load`. An id that `load` no longer finds (a reorg removed it since the page was read) has none.
 */
export async function eventBodies(db: Db, variant: string, ids: string[], load: (ids: string[]) => Promise<EventBody[]>): Promise<Bodies> {
  let cache = caches.get(db.$client);
  if (!cache) caches.set(db.$client, (cache = new Map()));
  const key = (id: string) => `${variant}:${id}`;
  const found: Bodies = new Map();
  const missing: string[] = [];
  for (const id of ids) {
    const body = cache.get(key(id));
    if (body === undefined) missing.push(id);
    else found.set(id, body);
  }
  if (missing.length === 0) return found;
  for (const { id, body } of await load(missing)) {
    found.set(id, body);
    cache.set(key(id), body);
  }
  // Insertion order is age order: the oldest entries go first.
  for (const k of cache.keys()) {
    if (cache.size <= MAX_BODIES) break;
    cache.delete(k);
  }
  return found;
}
