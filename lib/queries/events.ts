import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { iso, round } from "./format";

export const EVENT_TYPES = ["swap", "liquidity_add", "liquidity_remove", "transfer"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type EventQuery = {
  type?: EventType;
  token?: string;
  /** Events of this wallet: as the actor, or as the receiver of a transfer. */
  wallet?: string;
  since?: Date;
  afterId?: number;
  order: "asc" | "desc";
  page: number;
  limit: number;
};

/** Events ids encode the chain position: block * ID_BLOCK_FACTOR + log index. */
export const ID_BLOCK_FACTOR = 100_000;

type EventRow = {
  id: string;
  type: string;
  wallet_address: string;
  to_address: string | null;
  token_address: string;
  token_symbol: string | null;
  amount_usd: number;
  direction: string | null;
  block_number: string;
  timestamp: Date;
  tx_hash: string;
};

function toEvent(r: EventRow) {
  return {
    id: r.id,
    type: r.type,
    wallet_address: r.wallet_address,
    ...(r.to_address ? { to_address: r.to_address } : {}),
    token_address: r.token_address,
    token_symbol: r.token_symbol ?? "",
    amount_usd: round(r.amount_usd, 2),
    direction: r.direction,
    timestamp: iso(r.timestamp),
    block_number: Number(r.block_number),
    tx_hash: r.tx_hash,
  };
}
export type ApiEvent = ReturnType<typeof toEvent>;

/**
 * `since` becomes an id bound: block timestamps never decrease, so "after time T" is "from the
 * first block after T", which keeps every filter on the primary key's order.
 */
async function firstIdAfter(db: Db, since: Date): Promise<number> {
  const [row] = await db.execute<{ n: string | null }>(
    sql`select min(number)::text as n from blocks where timestamp > ${since.toISOString()}::timestamptz`,
  );
  return row?.n === null || row?.n === undefined ? Number.MAX_SAFE_INTEGER : Number(row.n) * ID_BLOCK_FACTOR;
}

function conditions(q: EventQuery, minId: number | undefined): SQL[] {
  const c: SQL[] = [];
  if (q.type) c.push(sql`e.type = ${q.type}`);
  if (q.token) c.push(sql`e.token_address = ${q.token}`);
  if (q.wallet) c.push(sql`(e.wallet_address = ${q.wallet} or e.to_address = ${q.wallet})`);
  if (minId !== undefined) c.push(sql`e.id >= ${minId}`);
  if (q.afterId !== undefined) c.push(sql`e.id > ${q.afterId}`);
  return c;
}

const whereOf = (c: SQL[]) => (c.length ? sql`where ${sql.join(c, sql` and `)}` : sql``);

const blockOf = (id: number) => Math.floor(id / ID_BLOCK_FACTOR);

/**
 * Exact totals without counting millions of rows: the trigger-kept counts answer the unfiltered
 * and type-only cases, and an id bound over the whole stream sums per-block counts on whichever
 * side of the bound has fewer blocks. Token and wallet filters select few enough rows to count.
 */
async function countEvents(db: Db, q: EventQuery, minId: number | undefined): Promise<number> {
  if (q.token || q.wallet) {
    const [row] = await db.execute<{ n: string }>(
      sql`select count(*)::text as n from events e ${whereOf(conditions(q, minId))}`,
    );
    return Number(row.n);
  }
  const typeCond = q.type ? sql`and type = ${q.type}` : sql``;
  const [scope] = await db.execute<{ count: string }>(
    sql`select count::text from event_counts where scope = ${q.type ? `type:${q.type}` : "all"}`,
  );
  const total = Number(scope?.count ?? 0);
  const bound = Math.max(minId ?? -1, q.afterId !== undefined ? q.afterId + 1 : -1);
  if (bound < 0) return total;

  // Events at or after `bound`: whole blocks after its block, plus its block's tail.
  const block = blockOf(bound);
  const [range] = await db.execute<{ lo: string | null; hi: string | null }>(
    sql`select min(block_number)::text as lo, max(block_number)::text as hi from event_block_counts`,
  );
  const lo = Number(range.lo ?? 0);
  const hi = Number(range.hi ?? 0);
  const sumBlocks = async (cond: SQL) => {
    const [row] = await db.execute<{ n: string | null }>(
      sql`select sum(count)::text as n from event_block_counts where ${cond} ${typeCond}`,
    );
    return Number(row.n ?? 0);
  };
  const after =
    hi - block < block - lo
      ? await sumBlocks(sql`block_number > ${block}`)
      : total - (await sumBlocks(sql`block_number <= ${block}`));
  const [tail] = await db.execute<{ n: string }>(sql`
    select count(*)::text as n from events e
     where e.id >= ${bound} and e.id < ${(block + 1) * ID_BLOCK_FACTOR} ${q.type ? sql`and e.type = ${q.type}` : sql``}`);
  return after + Number(tail.n);
}

/** Below this offset a plain OFFSET is cheap; above it, newest-first pages start from block counts. */
const DEEP_OFFSET = 5_000;
const DEEP_CHUNK_BLOCKS = 5_000;

/**
 * For a deep newest-first page of the whole stream (or one type), the id to start below and the
 * rows left to skip: walks per-block counts from the head instead of skipping rows one by one.
 * Lower bounds (since, after) only cut the old end, so they do not move the start.
 */
async function deepStart(db: Db, q: EventQuery, offset: number): Promise<{ belowId: number; skip: number } | null> {
  if (q.token || q.wallet || q.order !== "desc" || offset < DEEP_OFFSET) return null;
  let seen = 0;
  let below = Number.MAX_SAFE_INTEGER;
  // Per-block counts from the head down, a chunk at a time along the primary key.
  for (;;) {
    const chunk = await db.execute<{ block: string; n: string }>(sql`
      select block_number::text as block, sum(count)::text as n from event_block_counts
       where block_number < ${below} ${q.type ? sql`and type = ${q.type}` : sql``}
       group by block_number order by block_number desc limit ${DEEP_CHUNK_BLOCKS}`);
    if (chunk.length === 0) return null;
    for (const { block, n } of chunk) {
      if (seen + Number(n) > offset) return { belowId: (Number(block) + 1) * ID_BLOCK_FACTOR, skip: offset - seen };
      seen += Number(n);
    }
    below = Number(chunk[chunk.length - 1].block);
  }
}

export async function listEvents(db: Db, q: EventQuery) {
  const minId = q.since ? await firstIdAfter(db, q.since) : undefined;
  const order = q.order === "asc" ? sql`asc` : sql`desc`;
  const offset = (q.page - 1) * q.limit;
  const start = await deepStart(db, q, offset);
  const where = whereOf([...conditions(q, minId), ...(start ? [sql`e.id < ${start.belowId}`] : [])]);
  const [rows, total] = await Promise.all([
    db.execute<EventRow>(sql`
      select e.id::text as id, e.type, e.wallet_address, e.to_address, e.token_address, t.symbol as token_symbol,
             e.amount_usd, e.direction, e.block_number::text as block_number, e.timestamp, e.tx_hash
        from (select * from events e ${where} order by e.id ${order}
              limit ${q.limit} offset ${start ? start.skip : offset}) e
        left join tokens t on t.address = e.token_address
       order by e.id ${order}`),
    countEvents(db, q, minId),
  ]);
  return { data: rows.map((r) => toEvent({ ...r, timestamp: new Date(r.timestamp) })), total };
}
