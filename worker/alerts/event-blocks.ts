import { insertSql, names, type Tx, tableName } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { alertEventBlocks, blocks, syncState } from "@/db/schema";

/**
 * Which blocks' events are new to the event alerts (wallet, smart_money): those after the last
 * block they were evaluated over, and every block a reorg replaced since. alert_event_blocks
 * remembers each evaluated block's hash; a remembered block whose hash `blocks` no longer holds
 * was replaced, with every block after it (hashes chain), and its events, all new ids, are
 * evaluated (again). A replaced block's removed events were announced already: a transaction
 * the new branch includes again comes under its new event id.
 */
export type EventRange = {
  /** The blocks after `from`, up to and including `to`, are new: they are remembered once evaluated. */
  from: number;
  to: number;
  /** Those whose events may fire: after `after` (the new blocks recent enough; none on the first evaluation). */
  after: number;
  /** The lowest remembered block a reorg replaced; null when none was. */
  fork: number | null;
  /** Whether there is anything to read or to remember. */
  due: boolean;
};

const eb = names(alertEventBlocks);
const b = names(blocks);
const EVENT_BLOCKS = tableName(alertEventBlocks);
const BLOCKS = tableName(blocks);

/** Blocks are remembered this far back (the finality depth: a deeper reorg is an incident). */
const KEEP = `coalesce((select max(${names(syncState).finalityDepth}) from ${tableName(syncState)}), 64)`;

/** $1: the oldest block time recent enough to fire. Numbers as float8: JS numbers, not strings. */
const RANGE = `
  select (select max(${eb.number}) from ${EVENT_BLOCKS})::float8 as last,
         (select min(e.${eb.number}) from ${EVENT_BLOCKS} e left join ${BLOCKS} b on b.${b.number} = e.${eb.number}
           where b.${b.hash} is distinct from e.${eb.hash})::float8 as fork,
         (select max(${b.number}) from ${BLOCKS})::float8 as head,
         (select ${b.number} from ${BLOCKS} where ${b.timestamp} >= $1::timestamptz
           order by ${b.timestamp}, ${b.number} limit 1)::float8 as fresh`;

type RangeRow = { last: number | null; fork: number | null; head: number | null; fresh: number | null };

/**
 * The blocks to evaluate as of `freshSince` (the oldest block time that may still fire: older
 * events are passed over, so an alert never announces the past a worker was catching up on).
 * On the first evaluation ever, nothing is behind: it starts at the indexed head. Null when
 * nothing is indexed.
 */
export async function eventRange(sql: Sql, freshSince: Date): Promise<EventRange | null> {
  const [r] = await sql.unsafe<RangeRow[]>(RANGE, [freshSince.toISOString()]);
  if (r.head === null) return null;
  if (r.last === null) return { from: Number.MIN_SAFE_INTEGER, to: r.head, after: r.head, fork: null, due: true };
  const from = r.fork !== null ? r.fork - 1 : r.last;
  const after = Math.max(from, (r.fresh ?? Number.POSITIVE_INFINITY) - 1);
  return { from, to: r.head, after, fork: r.fork, due: r.fork !== null || r.head > from };
}

const FORGET = `delete from ${EVENT_BLOCKS} where ${eb.number} >= $1::bigint or ${eb.number} <= $2::bigint - ${KEEP}`;
const REMEMBER = insertSql(
  alertEventBlocks,
  { number: b.number, hash: b.hash },
  `from ${BLOCKS} where ${b.number} > greatest($1::bigint, $2::bigint - ${KEEP}) and ${b.number} <= $2::bigint`,
  { target: ["number"], action: ["hash"] },
);

/** Records the range as evaluated, in the transaction that commits what it fired. */
export async function rememberRange(tx: Tx, r: EventRange): Promise<void> {
  await tx.unsafe(FORGET, [r.fork ?? r.to + 1, r.to]);
  await tx.unsafe(REMEMBER, [r.from, r.to]);
}
