import { sql } from "drizzle-orm";
import { type Db, queryPrepared } from "@/db/client";
import { blocks, events, syncState } from "@/db/schema";
import {
  ALERT_COOLDOWN_MS,
  type EventKind,
  PRICE_WINDOWS,
  type PriceConditions,
  priceConditionHolds,
  type SmartMoneyConditions,
  type WalletConditions,
} from "@/lib/domain/alert-conditions";
import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
import { matchAlertEvents } from "./event-match";
import { type AlertEvent, MAX_LISTED_MATCHES } from "./payload";

/**
 * What an alert would have fired over the last day of chain time (the alert builder's preview):
 * a wallet or smart-money alert through the worker's own event match (event-match.ts), a
 * price alert by replaying the token's price after each of its pool events (events.price_usd,
 * the candles' and the price changes' source) through the same condition and cooldown.
 */
export const PREVIEW_DAY_MS = 86_400_000;

export type PreviewDefinition =
  | { kind: "wallet"; conditions: WalletConditions }
  | { kind: "smart_money"; conditions: SmartMoneyConditions }
  | { kind: "price"; conditions: PriceConditions };

/** A moment a price alert would have fired, with the values behind it. */
export type PriceFiring = { at: string; price_usd: number; change_pct: number | null };

export type AlertPreview = {
  kind: PreviewDefinition["kind"];
  /** The day previewed: the 24 h up to the indexed head's time. */
  from: string;
  to: string;
  /** Notifications the alert would have made: one per block with events, or one per firing. */
  notifications: number;
  /** Wallet and smart money: the events, newest first (at most MAX_LISTED_MATCHES), and how many. */
  events: AlertEvent[];
  total_events: number;
  /** Price: when it would have fired, newest first (at most MAX_LISTED_MATCHES). */
  firings: PriceFiring[];
};

type Head = { block: number | null; ms: number | null };

export async function previewAlert(db: Db, definition: PreviewDefinition): Promise<AlertPreview> {
  const [head] = await queryPrepared<Head>(
    db,
    sql`select max(${syncState.indexedBlock})::float8 as block,
               (extract(epoch from max(${syncState.indexedBlockTime})) * 1000)::float8 as ms
          from ${syncState}`,
  );
  const to = head?.ms ?? Date.now();
  const from = to - PREVIEW_DAY_MS;
  const preview = {
    kind: definition.kind,
    from: iso(from),
    to: iso(to),
    notifications: 0,
    events: [],
    total_events: 0,
    firings: [],
  };
  if (head?.block == null) return preview;
  if (definition.kind === "price") {
    const w = definition.conditions.window ? PRICE_WINDOWS[definition.conditions.window].ms : 0;
    const points = await pricePoints(
      db,
      definition.conditions.token_address,
      await firstBlockAt(db, from - w),
      head.block,
    );
    const firings = replayPrice(points, definition.conditions, from, to);
    return { ...preview, notifications: firings.length, firings: firings.reverse().slice(0, MAX_LISTED_MATCHES) };
  }
  const alert = { id: "preview", kind: definition.kind as EventKind, conditions: definition.conditions };
  const events = await matchAlertEvents(db.$client, alert, {
    after: (await firstBlockAt(db, from)) - 1,
    upTo: head.block,
  });
  const listed = events.slice(-MAX_LISTED_MATCHES).reverse();
  const notifications = new Set(events.map((e) => e.block_number)).size;
  return { ...preview, notifications, events: listed.map(({ alertId: _, ...e }) => e), total_events: events.length };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The first indexed block at or after `ms` (past the head when there is none). */
async function firstBlockAt(db: Db, ms: number): Promise<number> {
  const [row] = await queryPrepared<{ number: number | null }>(
    db,
    sql`select coalesce((select ${blocks.number} from ${blocks}
                          where ${blocks.timestamp} >= ${iso(ms)}::timestamptz
                          order by ${blocks.timestamp}, ${blocks.number} limit 1),
                        (select max(${blocks.number}) + 1 from ${blocks}), 0)::float8 as number`,
  );
  return row.number ?? 0;
}

type Point = { ms: number; price: number };

/** The token's price after each pool event from block `first` on, and after the last one before it. */
function pricePoints(db: Db, token: string, first: number, upTo: number): Promise<Point[]> {
  const [since, until] = [first * EVENT_ID_BLOCK_FACTOR, (upTo + 1) * EVENT_ID_BLOCK_FACTOR];
  return queryPrepared<Point>(
    db,
    sql`select ms, price from (
      (select ${events.id}, (extract(epoch from ${events.timestamp}) * 1000)::float8 as ms,
              ${events.priceUsd}::float8 as price
         from ${events}
        where ${events.tokenAddress} = ${token} and ${events.priceUsd} is not null and ${events.id} < ${since}
        order by ${events.id} desc limit 1)
      union all
      (select ${events.id}, (extract(epoch from ${events.timestamp}) * 1000)::float8, ${events.priceUsd}::float8
         from ${events}
        where ${events.tokenAddress} = ${token} and ${events.priceUsd} is not null and ${events.id} >= ${since}
          and ${events.id} < ${until})) p
    order by id`,
  );
}

/** The last point at or before `ms` (-1: none); `points` in time order. */
function lastAtOrBefore(points: readonly Point[], ms: number): number {
  let [lo, hi] = [0, points.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (points[mid].ms <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * When a price alert would have fired over [from, to], given the token's price after each pool
 * event (`points`, in time order, the first possibly before `from`). The price at a time is the
 * last point's; a change over a window starts from the price after the last event before the
 * window, else from the first positive price in it (worker/derive/metrics.ts). The condition is
 * priceConditionHolds; the alert fires when it newly holds (at `from` if it holds then, as a new
 * alert would), at most once per ALERT_COOLDOWN_MS, a new hold waiting for the cooldown only
 * while it lasts.
 */
export function replayPrice(points: readonly Point[], c: PriceConditions, from: number, to: number): PriceFiring[] {
  const window = c.window ? PRICE_WINDOWS[c.window] : undefined;
  const nextPositive = new Int32Array(points.length + 1).fill(points.length);
  for (let i = points.length - 1; i >= 0; i--) nextPositive[i] = points[i].price > 0 ? i : nextPositive[i + 1];
  const valuesAt = (t: number) => {
    const at = lastAtOrBefore(points, t);
    const price = at >= 0 ? points[at].price : 0;
    if (!window) return { price, change: null };
    const before = lastAtOrBefore(points, t - window.ms - 1);
    const firstIn = nextPositive[before + 1];
    const start =
      before >= 0 && points[before].price > 0 ? points[before].price : firstIn <= at ? points[firstIn].price : 0;
    return { price, change: start > 0 && price > 0 ? (price / start - 1) * 100 : null };
  };
  const holds = (v: { price: number; change: number | null }) => {
    const token = {
      priceUsd: v.price,
      priceChange5mPct: v.change,
      priceChange1hPct: v.change,
      priceChange24hPct: v.change,
    };
    return priceConditionHolds(token, c);
  };

  // The values change only at a point, or when a point leaves a window's start.
  const times = new Set([from]);
  for (const p of points) {
    if (p.ms > from && p.ms <= to) times.add(p.ms);
    if (window && p.ms + window.ms + 1 > from && p.ms + window.ms + 1 <= to) times.add(p.ms + window.ms + 1);
  }
  const firings: PriceFiring[] = [];
  let [held, pending, last] = [false, false, Number.NEGATIVE_INFINITY];
  const fire = (t: number) => {
    const v = valuesAt(t);
    firings.push({ at: iso(t), price_usd: v.price, change_pct: v.change });
    [pending, last] = [false, t];
  };
  for (const t of [...times].sort((a, b) => a - b)) {
    if (pending && last + ALERT_COOLDOWN_MS <= t) fire(last + ALERT_COOLDOWN_MS);
    const now = holds(valuesAt(t));
    if (now && !held) pending = true;
    if (!now) pending = false;
    held = now;
    if (pending && last + ALERT_COOLDOWN_MS <= t) fire(t);
  }
  if (pending && last + ALERT_COOLDOWN_MS <= to) fire(last + ALERT_COOLDOWN_MS);
  return firings;
}
