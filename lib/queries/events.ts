import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { aliasColumns } from "@/db/bulk";
import { type Db, pageWindow, queryPrepared } from "@/db/client";
import { firstIdAfter } from "@/db/event-ids";
import {
  chainContracts,
  eventCounts,
  eventCumulativeCounts,
  events,
  eventTombstones,
  pools,
  syncState,
  tokens,
  walletScores,
  wallets,
} from "@/db/schema";
import type { event, removedEvent } from "@/lib/api/schemas/events";
import { type Classification, type Direction, EVENT_ID_BLOCK_FACTOR, type EventType } from "@/lib/domain/vocab";
import { cursorAddress, decodeOwnedCursor, encodeCursor } from "./cursor";
import { type EventBody, eventBodies } from "./event-bodies";

export type EventQuery = {
  type?: EventType;
  token?: string;
  /** Swaps and liquidity changes in this pool only. */
  pool?: string;
  /** Swaps on this side only. */
  direction?: Direction;
  /** Events of wallets of this class (as their profiles give it now) only. */
  walletClass?: Classification;
  /** Events of this wallet: as the actor, or as the receiver of a transfer. */
  wallet?: string;
  since?: Date;
  afterId?: number;
  /** Also list the tombstones of events a reorg removed, merged in id order (docs/event-stream.md). */
  includeRemoved?: boolean;
  order: "asc" | "desc";
  page: number;
  limit: number;
  /** Newest first, the page after the event of this id (a cursor's): a bound of the page, not of the total. */
  beforeId?: number;
};

/** An event as the API sends it; typed by the response schema, as are the columns that serialise it below. */
export type ApiEvent = z.infer<typeof event>;
/** An event a reorg removed, as `include_removed=true` lists it: the id is never used again. */
export type RemovedEvent = z.infer<typeof removedEvent>;

/** Row `e` of events, as EVENT_BODY and the lists read it. */
const e = aliasColumns(events, "e");
/** Row `e` of event_tombstones, as TOMBSTONE_JSON reads it: the columns it shares with events are the same. */
const tomb = aliasColumns(eventTombstones, "e");

export { e as eventRow, tomb as tombstoneRow };

const x = aliasColumns(events, "x");
const t = aliasColumns(tokens, "t");
const p = aliasColumns(pools, "p");
const qt = aliasColumns(chainContracts, "qt");
const s = aliasColumns(syncState, "s");
const w = aliasColumns(wallets, "w");
const ws = aliasColumns(walletScores, "ws");
const cc = aliasColumns(eventCumulativeCounts, "cc");

/**
 * The last confirmed block, as SQL: an uncorrelated scalar the plan evaluates once per
 * statement (an InitPlan), read with the page it sets `confirmed` on. -1 (nothing confirmed)
 * until a worker recorded the chain's finality depth.
 */
const CONFIRMED_TO = sql`(select coalesce(max(${s.indexedBlock} - ${s.finalityDepth}), -1) from ${syncState} s)`;
const ISO_TIME = sql`to_char(${e.timestamp} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The class of wallet `address` (an SQL expression) as its profile gives it: the scored one, else the worker's first.
 */
const walletClassSql = (address: SQL) =>
  sql`coalesce((select coalesce(${ws.classification}, ${w.classification}) from ${wallets} w
    left join ${walletScores} ws on ${ws.address} = ${w.address}
                 where ${w.address} = ${address}), 'fresh')`;

/**
 * The fields of an event (`e`, a row of events) as SQL, in the API's order, but for `confirmed`,
 * which follows them (pageJson): a row's serialisation is then the same for good
 * (event-bodies.ts). `satisfies` holds them to the response schema, so a field added to one and
 * not the other does not compile. The API sends events as PostgreSQL serialised them: parsing
 * them into objects only to serialise them again would cost CPU per event. The token's symbol is
 * a probe per row, whatever the plan's row estimate (a join may hash every token).
 */
const EVENT_BODY_FIELDS = {
  id: sql`${e.id}::text`,
  type: sql`${e.type}`,
  wallet_address: sql`${e.walletAddress}`,
  to_address: sql`${e.toAddress}`,
  token_address: sql`${e.tokenAddress}`,
  token_symbol: sql`coalesce((select ${t.symbol} from ${tokens} t where ${t.address} = ${e.tokenAddress}), '')`,
  amount_usd: sql`round(${e.amountUsd}::numeric, 2)::float8`,
  pool_address: sql`${e.poolAddress}`,
  token_amount: sql`coalesce((select (${e.tokenAmount} / power(10::numeric, ${t.decimals}))::float8 from ${tokens} t
    where ${t.address} = ${e.tokenAddress}), 0)`,
  quote_amount: sql`${e.quoteAmount}`,
  // The pool's side that is not the token, named by the chain profile's quote tokens.
  quote_symbol: sql`(select ${qt.name} from ${pools} p join ${chainContracts} qt on ${qt.role} = 'quote_token'
                       and ${qt.address} = case when ${p.token0} = ${e.tokenAddress} then ${p.token1}
                                                else ${p.token0} end
                      where ${p.address} = ${e.poolAddress})`,
  price_usd: sql`${e.priceUsd}`,
  direction: sql`${e.direction}`,
  timestamp: ISO_TIME,
  block_number: sql`${e.blockNumber}`,
  tx_hash: sql`${e.txHash}`,
} satisfies Record<Exclude<keyof ApiEvent, "confirmed" | "wallet_classification">, SQL>;

/** A tombstone's fields (`e`, a row of event_tombstones): what was removed, marked `removed`. */
const TOMBSTONE_FIELDS = {
  id: sql`${tomb.id}::text`,
  removed: sql`true`,
  type: sql`${tomb.type}`,
  wallet_address: sql`${tomb.walletAddress}`,
  to_address: sql`${tomb.toAddress}`,
  token_address: sql`${tomb.tokenAddress}`,
  timestamp: ISO_TIME,
  block_number: sql`${tomb.blockNumber}`,
  tx_hash: sql`${tomb.txHash}`,
} satisfies Record<keyof RemovedEvent, SQL>;

/**
 * Row `e` as a JSON object of `fields`: to_address only when set, wallet_address only
 * `withWallet` (a wallet's own event list leaves it out).
 */
function objectJson(fields: Record<string, SQL>, withWallet: boolean): SQL {
  const row = (withTo: boolean) => {
    const kept = Object.entries(fields).filter(
      ([name]) => (name !== "wallet_address" || withWallet) && (name !== "to_address" || withTo),
    );
    return sql`(select row_to_json(x) from (select ${sql.join(
      kept.map(([name, value]) => sql`${value} as ${sql.identifier(name)}`),
      sql`, `,
    )}) x)`;
  };
  return sql`case when ${e.toAddress} is null then ${row(false)} else ${row(true)} end`;
}

const tombstoneJson = (withWallet: boolean) => objectJson(TOMBSTONE_FIELDS, withWallet);

/** Row `e` of events as its kept body (event-bodies.ts): its JSON object text without the closing brace. */
const eventBodySql = (withWallet: boolean) => sql`left((${objectJson(EVENT_BODY_FIELDS, withWallet)})::text, -1)`;

/** Row `e` of events as the event stream sends it: its kept body, wallet included. */
export const EVENT_BODY = eventBodySql(true);
/** EVENT_BODY with the wallet's class now, as a page of GET /v1/events adds it (the stream's live events). */
export const EVENT_BODY_WITH_CLASS = sql`${EVENT_BODY}
  || ',"wallet_classification":"' || ${walletClassSql(sql`${e.walletAddress}`)} || '"'`;
/** Row `e` of event_tombstones as the event stream sends it: its JSON text, wallet included. */
export const TOMBSTONE_JSON = sql`(${tombstoneJson(true)})::text`;

/** An event's JSON text: its kept body with `confirmed` as of a read. */
export const eventJson = (body: string, confirmed: boolean) => `${body},"confirmed":${confirmed}}`;

/** The filters that conditions() reads (the wallet apart: walletSides). */
type Conditions = Pick<EventQuery, "type" | "token" | "since" | "afterId" | "pool" | "direction" | "walletClass">;

/**
 * The lowest id a query may return, as SQL evaluated inside the query that uses it (no round
 * trip of its own), or null without a lower bound. With `since` but no newer block there is
 * no event, hence the bound past every id.
 */
function lowerBound(q: Conditions): SQL | null {
  const bounds: SQL[] = [];
  if (q.since) bounds.push(sql`coalesce(${firstIdAfter(q.since)}, ${Number.MAX_SAFE_INTEGER}::bigint)`);
  if (q.afterId !== undefined) bounds.push(sql`${q.afterId + 1}::bigint`);
  return bounds.length ? sql`greatest(${sql.join(bounds, sql`, `)})` : null;
}

/**
 * Every condition but the wallet's, which the queries below split in two index scans; without
 * the lower bound where an oldest-first deep start replaces it.
 */
function conditions(q: Conditions, withLowerBound = true): SQL[] {
  const c: SQL[] = [];
  const bound = withLowerBound ? lowerBound(q) : null;
  if (q.type) c.push(sql`${e.type} = ${q.type}`);
  if (q.token) c.push(sql`${e.tokenAddress} = ${q.token}`);
  if (q.pool) c.push(sql`${e.poolAddress} = ${q.pool}`);
  if (q.direction) c.push(sql`${e.direction} = ${q.direction}`);
  if (q.walletClass) c.push(sql`${walletClassSql(sql`${e.walletAddress}`)} = ${q.walletClass}`);
  if (bound) c.push(sql`${e.id} >= ${bound}`);
  return c;
}

const whereOf = (c: SQL[]) => (c.length ? sql`where ${sql.join(c, sql` and `)}` : sql``);

/**
 * A wallet's events are those it sent plus the transfers it received from someone else: two
 * index scans (events_wallet_idx, events_to_idx) instead of an OR that reads every row of a
 * busy wallet.
 */
function walletSides(wallet: string): SQL[] {
  return [sql`${e.walletAddress} = ${wallet}`, sql`${e.toAddress} = ${wallet} and ${e.walletAddress} <> ${wallet}`];
}

/**
 * Filters by what no kept count splits by: the total counts the rows (the API asks for a token or a wallet with them).
 */
const narrowed = (q: EventQuery) => q.pool !== undefined || q.direction !== undefined || q.walletClass !== undefined;

const scopeOf = (q: EventQuery) => (q.type ? `type:${q.type}` : "all");

/**
 * The kept total of a token's or a wallet's events (a party scope of event_counts), when the
 * query filters by that alone.
 */
function partyScope(q: EventQuery): string | null {
  if (q.type || q.since || q.afterId !== undefined || (q.wallet && q.token) || narrowed(q)) return null;
  return q.wallet ? `wallet:${q.wallet}` : q.token ? `token:${q.token}` : null;
}

/** The trigger-kept count of a scope of events (event_counts), as a scalar subquery: null when none is kept. */
const keptCount = (scope: string) =>
  sql`(select ${eventCounts.count} from ${eventCounts} where ${eventCounts.scope} = ${scope})`;

/**
 * The exact total as a scalar SQL expression, evaluated by the page's own query. A token's or a
 * wallet's whole list reads its trigger-kept count; further filters select few enough rows to
 * count on their indexes. The whole stream (or one type) reads the trigger-kept counts: the
 * scope's total, less the running total of the blocks before a lower bound, less the bound
 * block's events before the bound.
 */
function totalSql(q: EventQuery): SQL {
  const party = partyScope(q);
  if (party) return sql`coalesce(${keptCount(party)}, 0)`;
  if (q.wallet) {
    const c = conditions(q);
    return sql.join(
      walletSides(q.wallet).map((side) => sql`(select count(*) from ${events} e ${whereOf([...c, side])})`),
      sql` + `,
    );
  }
  if (q.token || narrowed(q)) return sql`(select count(*) from ${events} e ${whereOf(conditions(q))})`;
  const scope = scopeOf(q);
  const bound = lowerBound(q) ?? sql`0::bigint`;
  return sql`(with b as (select ${bound} as id)
    select coalesce(${keptCount(scope)}, 0)
         - coalesce((select ${cc.cum} from ${eventCumulativeCounts} cc
                      where ${cc.scope} = ${scope} and ${cc.blockNumber} < (select id from b) / ${EVENT_ID_BLOCK_FACTOR}
                      order by ${cc.blockNumber} desc limit 1), 0)
         - (select count(*) from ${events} e
             where ${e.id} >= (select id from b) / ${EVENT_ID_BLOCK_FACTOR} * ${EVENT_ID_BLOCK_FACTOR}
               and ${e.id} < (select id from b)
             ${q.type ? sql`and ${e.type} = ${q.type}` : sql``}))`;
}

/** Below this offset a plain OFFSET is cheap; above it, pages of the stream start from block counts. */
const DEEP_OFFSET = 5_000;

/**
 * For a deep page of the whole stream (or one type), where the page starts, as SQL for the
 * page's own query (a CTE `start`, the page's id condition, the rows to skip): the block
 * holding the page's first event is the first whose running total reaches that event's rank,
 * one probe of event_cumulative_counts_cum_idx, and the page skips only the rows of that block
 * before it. Newest first, the rank counts back from the scope's total; lower bounds (since,
 * after) only cut the old end, so they do not move it. Oldest first, the rank counts on from
 * the events before the lower bound (the scope's total less the page's `total`), and the
 * start block, at or past the bound, replaces it as the page's lower id.
 */
function deepStart(q: EventQuery, offset: number): { cte: SQL; condition: SQL; skip: SQL } | null {
  if (q.token || q.wallet || narrowed(q) || offset < DEEP_OFFSET) return null;
  const scope = scopeOf(q);
  const scopeTotal = keptCount(scope);
  if (q.order === "desc") {
    return {
      cte: sql`select ${cc.blockNumber}, ${scopeTotal} - ${cc.cum} as after from ${eventCumulativeCounts} cc
                where ${cc.scope} = ${scope} and ${cc.cum} >= ${scopeTotal} - ${offset} order by ${cc.cum} limit 1`,
      // No such block (an empty stream): an empty page.
      condition: sql`${e.id} < coalesce((select (block_number + 1) * ${EVENT_ID_BLOCK_FACTOR} from start), 0)`,
      skip: sql`coalesce(${offset} - (select after from start), 0)`,
    };
  }
  const rank = sql`(${scopeTotal} - (select n from total) + ${offset} + 1)`;
  return {
    cte: sql`select ${cc.blockNumber}, ${rank} - 1 - (${cc.cum} - ${cc.count}) as skip from ${eventCumulativeCounts} cc
              where ${cc.scope} = ${scope} and ${cc.cum} >= ${rank} order by ${cc.cum} limit 1`,
    // No such block (past the end): an empty page.
    condition: sql`${e.id} >= coalesce((select block_number * ${EVENT_ID_BLOCK_FACTOR} from start),
                                            ${Number.MAX_SAFE_INTEGER}::bigint)`,
    skip: sql`coalesce((select skip from start), 0)`,
  };
}

/** The page row's event's wallet class, as a column of the page's statement (`p.id`: the event's id). */
const walletClassColumn = sql`, (select ${walletClassSql(sql`${x.walletAddress}`)}
  from ${events} x where ${x.id} = p.id) as wallet_class`;

/** What a page's statement returns: a row per event (id null on an empty page) with the page's total. */
type PageRow = {
  id: string | null;
  total: string;
  confirmed_to: string;
  tombstone?: string | null;
  wallet_class?: string | null;
};

/** An item of a page: its id and its JSON text. */
export type EventItem = { id: string; json: string };

/**
 * The page's rows as items, in their order: a tombstone as its statement serialised it, an event
 * as its kept body (event-bodies.ts; those not kept yet in one statement) with `confirmed` as of
 * the page's own read. An event a reorg removed after that read drops out.
 */
async function pageItems(db: Db, rows: PageRow[], withWallet: boolean): Promise<EventItem[]> {
  const live = rows.flatMap((r) => (r.id === null || r.tombstone ? [] : [r.id]));
  const bodies = await eventBodies(db, withWallet ? "event" : "wallet-event", live, (ids) =>
    queryPrepared<EventBody>(
      db,
      sql`select ${e.id}::text as id, ${eventBodySql(withWallet)} as body
        from ${events} e where ${e.id} = any(${sql.param(ids)}::bigint[])`,
    ),
  );
  // An id holds its block: block * EVENT_ID_BLOCK_FACTOR + its sequence in the block.
  const confirmedBelow = (Number(rows[0].confirmed_to) + 1) * EVENT_ID_BLOCK_FACTOR;
  return rows.flatMap((r) => {
    if (r.id === null) return [];
    if (r.tombstone) return [{ id: r.id, json: r.tombstone }];
    const body = bodies.get(r.id);
    // The wallet's class is read with the page (it changes; the body does not).
    const walletClass = withWallet ? `,"wallet_classification":"${r.wallet_class ?? "fresh"}"` : "";
    return body === undefined
      ? []
      : [{ id: r.id, json: eventJson(`${body}${walletClass}`, Number(r.id) < confirmedBelow) }];
  });
}

/** The page's rows as a JSON array text (pageItems). */
async function pageJson(db: Db, rows: PageRow[], withWallet: boolean): Promise<string> {
  return `[${(await pageItems(db, rows, withWallet)).map((i) => i.json).join(",")}]`;
}

/**
 * The ids of a page of live events under conditions `c`, as SQL: `limit` of them from `skip` on.
 * A wallet's page is the top of each side's page merged; each side needs offset + limit rows.
 */
function pageIds(
  q: Pick<EventQuery, "wallet">,
  c: SQL[],
  order: SQL,
  limit: number,
  offset: number,
  skip: number | SQL = offset,
): SQL {
  if (!q.wallet)
    return sql`select ${e.id} from ${events} e ${whereOf(c)} order by ${e.id} ${order} ${pageWindow(limit, skip)}`;
  return sql`select * from (${sql.join(
    walletSides(q.wallet).map(
      (side) =>
        sql`(select ${e.id} from ${events} e ${whereOf([...c, side])}
              order by ${e.id} ${order} ${pageWindow(offset + limit)})`,
    ),
    sql` union all `,
  )}) e order by e.id ${order} ${pageWindow(limit, offset)}`;
}

/**
 * A page of events as a JSON array text, and the exact total; with `peek`, whether more follow
 * and the page's last id (the page reads one event past its end).
 */
export async function listEventsJson(
  db: Db,
  q: EventQuery,
  { withWallet = true, peek = false } = {},
): Promise<{ json: string; total: number; more: boolean; lastId: string | null }> {
  if (q.includeRemoved) return { ...(await listWithRemovedJson(db, q, withWallet)), more: false, lastId: null };
  const order = q.order === "asc" ? sql`asc` : sql`desc`;
  const offset = q.beforeId === undefined ? (q.page - 1) * q.limit : 0;
  const limit = peek ? q.limit + 1 : q.limit;
  const start = deepStart(q, offset);
  const c = start ? [...conditions(q, q.order === "desc"), start.condition] : conditions(q);
  if (q.beforeId !== undefined) c.push(sql`${e.id} < ${q.beforeId}`);
  const page = pageIds(q, c, order, limit, offset, start?.skip);
  // One statement for the page's ids, its total and the last confirmed block: an empty page still returns the total's
  // row.
  const rows = await queryPrepared<PageRow>(
    db,
    sql`
    with total as (select ${totalSql(q)} as n) ${start ? sql`, start as (${start.cte})` : sql``}
    select p.id::text as id, total.n::text as total,
           ${CONFIRMED_TO}::text as confirmed_to${withWallet ? walletClassColumn : sql``}
      from total left join (${page}) p on true
     order by p.id ${order}`,
  );
  const more = rows.length > q.limit;
  const kept = more ? rows.slice(0, q.limit) : rows;
  return {
    json: await pageJson(db, kept, withWallet),
    total: Number(rows[0].total),
    more,
    lastId: kept.at(-1)?.id ?? null,
  };
}

/**
 * A page of live events and tombstones merged in id order, and their exact total: what a
 * consumer following the stream across reorgs reads (docs/event-stream.md). Each source gives
 * its first offset + limit ids (per wallet side, as above); the merged page's tombstones are then
 * serialised by primary key. Tombstones are few, so this path does without the block-count shortcuts.
 */
async function listWithRemovedJson(
  db: Db,
  q: EventQuery,
  withWallet: boolean,
): Promise<{ json: string; total: number }> {
  const order = q.order === "asc" ? sql`asc` : sql`desc`;
  const offset = (q.page - 1) * q.limit;
  const c = conditions(q);
  const sides = q.wallet ? walletSides(q.wallet) : [null];
  const where = (side: SQL | null) => whereOf(side ? [...c, side] : c);
  const arms = (table: typeof events | typeof eventTombstones, removed: boolean) =>
    sides.map(
      (side) =>
        sql`(select ${e.id}, ${sql.raw(String(removed))} as removed
          from ${table} e ${where(side)} order by ${e.id} ${order} ${pageWindow(offset + q.limit)})`,
    );
  const both = sql.join([...arms(events, false), ...arms(eventTombstones, true)], sql` union all `);
  const removedTotal = sql.join(
    sides.map((side) => sql`(select count(*) from ${eventTombstones} e ${where(side)})`),
    sql` + `,
  );
  const rows = await queryPrepared<PageRow>(
    db,
    sql`
    with total as (select ${totalSql(q)} + ${removedTotal} as n),
    page as (
      select * from (${both}) u
       order by u.id ${order} ${pageWindow(q.limit, offset)})
    select p.id::text as id, p.tombstone, total.n::text as total,
           ${CONFIRMED_TO}::text as confirmed_to${withWallet ? walletClassColumn : sql``}
      from total left join (
      select page.id, case when page.removed
        then (select (${tombstoneJson(withWallet)})::text from ${eventTombstones} e where ${tomb.id} = page.id)
        end as tombstone
      from page
    ) p on true
    order by p.id ${order}`,
  );
  return { json: await pageJson(db, rows, withWallet), total: Number(rows[0].total) };
}

/** The live events of a stretch of the stream: the list's filters, ids in (afterId, throughId], oldest first. */
export type EventRange = Pick<EventQuery, "type" | "token" | "wallet"> & {
  afterId: number;
  throughId: number;
  limit: number;
};

/**
 * The first `limit` events of a range as items (the event stream's catch-up): the list's page,
 * oldest first, without its total, and with an upper bound.
 */
export async function listEventRange(db: Db, r: EventRange): Promise<EventItem[]> {
  const c = [...conditions(r), sql`${e.id} <= ${r.throughId}::bigint`];
  const rows = await queryPrepared<PageRow>(
    db,
    sql`select p.id::text as id, ${CONFIRMED_TO}::text as confirmed_to${walletClassColumn}
          from (select) one left join (${pageIds(r, c, sql`asc`, r.limit, 0)}) p on true order by p.id asc`,
  );
  return pageItems(db, rows, true);
}

/** A page of events as objects (the dashboard's read). */
export async function listEvents(db: Db, q: EventQuery): Promise<{ data: ApiEvent[]; total: number }> {
  const { json, total } = await listEventsJson(db, q);
  return { data: JSON.parse(json) as ApiEvent[], total };
}

/** A wallet events cursor: the wallet and the last event's id (the list is newest first). */
const walletEventsPosition = z.tuple([cursorAddress, z.string().regex(/^[0-9]{1,19}$/)]);

/**
 * One page of a wallet's events, newest first (from its page number, or after a cursor's last
 * event: ids never change, so a walk lists each event once however many arrive meanwhile), as
 * the list envelope's JSON text with the next page's cursor.
 */
export async function walletEventListJson(
  db: Db,
  wallet: string,
  q: { type?: EventType; page: number; limit: number; cursor?: string },
): Promise<string> {
  const list = `wallet-events:${q.type ?? "all"}`;
  const cursor =
    q.cursor === undefined
      ? undefined
      : decodeOwnedCursor(q.cursor, list, walletEventsPosition, wallet, "another wallet's events");
  const page = cursor?.page ?? q.page;
  const query: EventQuery = {
    type: q.type,
    wallet,
    order: "desc",
    page,
    limit: q.limit,
    beforeId: cursor && Number(cursor.position[1]),
  };
  const { json, total, more, lastId } = await listEventsJson(db, query, { withWallet: false, peek: true });
  const next = more && lastId !== null ? JSON.stringify(encodeCursor(list, page + 1, [wallet, lastId])) : "null";
  return `{"data":${json},"total":${total},"page":${page},"limit":${q.limit},"next_cursor":${next}}`;
}
