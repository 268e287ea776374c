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

/**
 * Exact totals without counting millions of rows: the trigger-kept counts answer the
 * unfiltered and type-only cases; an id bound over the whole stream is counted on whichever
 * side of the bound is smaller (ids track the chain, so their range tells which).
 */
async function countEvents(db: Db, q: EventQuery, minId: number | undefined): Promise<number> {
  const countWhere = async (c: SQL[]) => {
    const [row] = await db.execute<{ n: string }>(sql`select count(*)::text as n from events e ${whereOf(c)}`);
    return Number(row.n);
  };
  if (q.token || q.wallet) return countWhere(conditions(q, minId));

  const [scope] = await db.execute<{ count: string }>(
    sql`select count::text from event_counts where scope = ${q.type ? `type:${q.type}` : "all"}`,
  );
  const scopeTotal = Number(scope?.count ?? 0);
  const bound = Math.max(minId ?? -Infinity, q.afterId !== undefined ? q.afterId + 1 : -Infinity);
  if (bound === -Infinity) return scopeTotal;

  const [range] = await db.execute<{ lo: string | null; hi: string | null }>(
    sql`select min(id)::text as lo, max(id)::text as hi from events`,
  );
  const lo = Number(range.lo ?? 0);
  const hi = Number(range.hi ?? 0);
  if (bound - lo > hi - bound) return countWhere(conditions(q, minId));
  const typeCond = q.type ? [sql`e.type = ${q.type}`] : [];
  return scopeTotal - (await countWhere([...typeCond, sql`e.id < ${bound}`]));
}

export async function listEvents(db: Db, q: EventQuery) {
  const minId = q.since ? await firstIdAfter(db, q.since) : undefined;
  const order = q.order === "asc" ? sql`asc` : sql`desc`;
  const where = whereOf(conditions(q, minId));
  const [rows, total] = await Promise.all([
    db.execute<EventRow>(sql`
      select e.id::text as id, e.type, e.wallet_address, e.to_address, e.token_address, t.symbol as token_symbol,
             e.amount_usd, e.direction, e.block_number::text as block_number, e.timestamp, e.tx_hash
        from (select * from events e ${where} order by e.id ${order}
              limit ${q.limit} offset ${(q.page - 1) * q.limit}) e
        left join tokens t on t.address = e.token_address
       order by e.id ${order}`),
    countEvents(db, q, minId),
  ]);
  return { data: rows.map((r) => toEvent({ ...r, timestamp: new Date(r.timestamp) })), total };
}
