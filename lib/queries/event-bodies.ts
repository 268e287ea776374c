import type { Db } from "@/db/client";
import { databaseCache } from "@/lib/cache";

/**
 * Events as PostgreSQL serialised them, less `confirmed`, by id: an event row is never updated
 * and its id is never used again (a reorg deletes it and keeps a tombstone), so its
 * serialisation holds for good except `confirmed`, which each response sets from the head it
 * read. The newest events, which every consumer of the stream reads, are then serialised once,
 * not once per request and filter.
 */
const bodiesOf = databaseCache<string, string>({ name: "eventBodies", max: 100_000 });

type Bodies = Map<string, string>;

/** A body is JSON object text without its closing brace, so that `confirmed` can follow it. */
export type EventBody = { id: string; body: string };

/**
 * The bodies of `ids` (`variant`: which fields they hold), reading only those not kept yet with
 * `load`. An id that `load` no longer finds (a reorg removed it since the page was read) has none.
 */
export async function eventBodies(
  db: Db,
  variant: string,
  ids: string[],
  load: (ids: string[]) => Promise<EventBody[]>,
): Promise<Bodies> {
  const cache = bodiesOf(db);
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
  return found;
}
