import { type SQL, sql } from "drizzle-orm";
import { aliasColumns } from "@/db/bulk";
import { type Db, queryPrepared } from "@/db/client";
import { events, eventTombstones, reorgRollbacks, syncState } from "@/db/schema";
import { EVENT_ID_BLOCK_FACTOR, type EventType } from "@/lib/domain/vocab";
import { EVENT_BODY_WITH_CLASS, eventRow as e, TOMBSTONE_JSON, tombstoneRow as tomb } from "./events";

/**
 * The reads behind GET /v1/events/stream (lib/api/stream): what changed in the indexed events
 * since a server's last read, once per new block for all its clients, and where a client
 * resuming from an id stands. Ids hold their block (id = block * EVENT_ID_BLOCK_FACTOR + n).
 */

/**
 * An event or a tombstone as the stream holds it: the fields its filters test, and its JSON (an event's without
 * `confirmed`).
 */
export type StreamItem = {
  id: number;
  block: number;
  type: EventType;
  wallet: string;
  to: string | null;
  token: string;
  json: string;
};

/** A reorg rollback: the block it rolled back to, and the tombstones of the events it removed, newest first. */
export type StreamRollback = { id: number; ancestor: number; tombstones: StreamItem[] };

/** The chain as indexed: its head, its last confirmed block (-1: none yet), and the last rollback's id (0: none). */
export type StreamHead = { head: number; confirmed: number; rollbackId: number };

const F = EVENT_ID_BLOCK_FACTOR;

const t = aliasColumns(eventTombstones, "t");
const rb = aliasColumns(reorgRollbacks, "rb");

/** The last id a block can hold. */
export const lastIdOf = (block: number) => (block + 1) * F - 1;

/** The indexed head and the finality depth (null before a worker wrote it), as one row `s`. */
const HEAD = sql`(select coalesce(st.indexed_block, 0) as head, st.finality_depth as depth
  from (select) one left join (select ${syncState.indexedBlock}, ${syncState.finalityDepth} from ${syncState}
    order by ${syncState.chainId} limit 1) st on true)`;
const LAST_ROLLBACK = sql`(select coalesce(max(${reorgRollbacks.id}), 0) from ${reorgRollbacks})`;

/** The rollbacks whose id meets `condition`, as CTE `r` (id, ancestor_block, removed_at). */
const rollbacksWhere = (condition: SQL) =>
  sql`select ${reorgRollbacks.id}, ${reorgRollbacks.ancestorBlock}, ${reorgRollbacks.removedAt} from ${reorgRollbacks}
       where ${condition}`;

/** Row `e` (of events or event_tombstones) as a StreamItem, `json` given. */
const itemJson = (json: SQL) =>
  sql`json_build_object('id', ${e.id}, 'block', ${e.blockNumber}, 'type', ${e.type}, 'wallet', ${e.walletAddress},
    'to', ${e.toAddress},
                        'token', ${e.tokenAddress}, 'json', ${json})`;

/**
 * The rollbacks of `r` (id, ancestor_block, removed_at) in order as JSON, each with the tombstones
 * it left with ids up to `through`, newest first.
 */
const rollbacksJson = (
  through: SQL,
) => sql`(select json_agg(json_build_object('id', r.id, 'ancestor', r.ancestor_block, 'tombstones', coalesce(
    (select json_agg(${itemJson(TOMBSTONE_JSON)} order by ${tomb.id} desc) from ${eventTombstones} e
      where ${tomb.id} > (r.ancestor_block + 1) * ${F} - 1 and ${tomb.id} <= ${through}
        and ${tomb.removedAt} = r.removed_at),
      '[]'::json)) order by r.id)
  from r)`;

type HeadRow = { head: string; depth: number | null; rollback_id: string };
const headOf = (row: HeadRow): StreamHead => {
  const head = Number(row.head);
  return { head, confirmed: row.depth === null ? -1 : head - row.depth, rollbackId: Number(row.rollback_id) };
};

export async function readStreamHead(db: Db): Promise<StreamHead> {
  const [row] = await queryPrepared<HeadRow>(
    db,
    sql`select s.head::text, s.depth, ${LAST_ROLLBACK}::text as rollback_id from ${HEAD} s`,
  );
  return headOf(row);
}

/**
 * A server's view of the stream: through which block it holds the events, the last rollback it saw, the lowest block it
 * keeps.
 */
export type StreamView = { covered: number; rollbackId: number; floor: number };

/**
 * What changed since `view`, in one statement (one snapshot): the head; the rollbacks since, each
 * with the tombstones of the events the view held that it removed; the live events the view must
 * (re)load, in (lo, head]: above the lowest block a rollback went back to, and above the view's
 * new floor (its confirmed block: below it nothing changes, and clients behind it read pages);
 * and the last live id at or below the new floor.
 */
export type StreamChanges = StreamHead & {
  floor: number;
  lo: number;
  baseId: number;
  rollbacks: StreamRollback[];
  events: StreamItem[];
};

type ChangesRow = HeadRow & {
  floor: string;
  lo: string;
  base_id: string | null;
  rollbacks: StreamRollback[] | null;
  events: StreamItem[] | null;
};

export async function readStreamChanges(db: Db, view: StreamView): Promise<StreamChanges> {
  const [row] = await queryPrepared<ChangesRow>(
    db,
    sql`with s as ${HEAD},
      r as (${rollbacksWhere(sql`${reorgRollbacks.id} > ${view.rollbackId}::bigint`)}),
      b as (select s.head, s.depth, greatest(${view.floor}::bigint, s.head - s.depth) as floor,
                   least(${view.covered}::bigint,
                         coalesce((select min(ancestor_block) from r), ${view.covered}::bigint), s.head) as fork from s)
    select b.head::text, b.depth, b.floor::text, greatest(b.fork, b.floor)::text as lo,
           ${LAST_ROLLBACK}::text as rollback_id,
           (select max(${e.id}) from ${events} e where ${e.id} <= (b.floor + 1) * ${F} - 1)::text as base_id,
           ${rollbacksJson(sql`${lastIdOf(view.covered)}::bigint`)} as rollbacks,
           (select json_agg(${itemJson(EVENT_BODY_WITH_CLASS)} order by ${e.id}) from ${events} e
             where ${e.id} > (greatest(b.fork, b.floor) + 1) * ${F} - 1 and ${e.id} <= (b.head + 1) * ${F} - 1) as events
      from b`,
  );
  return {
    ...headOf(row),
    floor: Number(row.floor),
    lo: Number(row.lo),
    baseId: Number(row.base_id ?? 0),
    rollbacks: row.rollbacks ?? [],
    events: row.events ?? [],
  };
}

/**
 * Where a client resuming after `id` stands. A live id (or one that never was an event): it holds
 * every event up to it, so the stream goes on from there. An id a reorg removed: it holds what was
 * live before that rollback up to the id; `rollbacks` are that rollback and every later one, each
 * with its tombstones up to the id, so the client learns what it holds that is gone, and `pos` is
 * the end of the lowest block any of them went back to, below which nothing it holds changed.
 * `wireId`: the last live id at or below `pos` (0: none), a position to resume from again.
 */
export type ResumePoint = StreamHead & { pos: number; wireId: number; rollbacks: StreamRollback[] };

type ResumeRow = HeadRow & { pos: string; wire_id: string; rollbacks: StreamRollback[] | null };

export async function readResumePoint(db: Db, id: number): Promise<ResumePoint> {
  const after = sql`${id}::bigint`;
  const [row] = await queryPrepared<ResumeRow>(
    db,
    sql`with s as ${HEAD},
      gone as (select min(${rb.id}) as first from ${reorgRollbacks} rb
                where ${rb.removedAt} = (select ${t.removedAt} from ${eventTombstones} t where ${t.id} = ${after})
                  and not exists (select from ${events} e where ${e.id} = ${after})),
      r as (${rollbacksWhere(sql`${reorgRollbacks.id} >= (select first from gone)`)}),
      p as (select least(${after}, (select (min(ancestor_block) + 1) * ${F} - 1 from r)) as pos)
    select s.head::text, s.depth, ${LAST_ROLLBACK}::text as rollback_id, p.pos::text,
           coalesce((select max(${e.id}) from ${events} e where ${e.id} <= p.pos), 0)::text as wire_id,
           ${rollbacksJson(after)} as rollbacks
      from s, p`,
  );
  return { ...headOf(row), pos: Number(row.pos), wireId: Number(row.wire_id), rollbacks: row.rollbacks ?? [] };
}
