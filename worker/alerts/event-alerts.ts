import { createHash } from "node:crypto";
import { insertRows, names, updateSql } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { alerts as alertsTable, notifications } from "@/db/schema";
import { type AlertEvent, MAX_LISTED_MATCHES } from "@/lib/alerts/payload";
import type { EventKind, SmartMoneyConditions, WalletConditions } from "@/lib/domain/alert-conditions";
import { type EventRange, eventRange, rememberRange } from "./event-blocks";
import { type Firing, firingOf, loadTargets, notificationRow } from "./firing";
import { liveKey } from "./load";

/**
 * Wallet and smart-money alerts fire per on-chain event: after each block batch (the blocks an
 * indexing cycle added, event-blocks.ts), every live alert with matching events gets one
 * notification listing them, whatever it sent before (no cooldown: each event is news once).
 * Each kind is one query for the whole batch and all its alerts (the alerts as unnest arrays
 * joined to the batch's events), never a query per alert or per event. A notification's
 * idempotency key is made of its alert and its events' ids, and it commits with the batch's
 * blocks being remembered, so a batch evaluated again (a crash before the commit) makes the same
 * notification once.
 */
export type EventAlert = { id: string; kind: EventKind; conditions: WalletConditions | SmartMoneyConditions };

export type EventReport = { blocks: number; events: number; fired: number };

type Matched = Omit<AlertEvent, "timestamp"> & { alertId: string; timeMs: number };

/** The columns of a matched event, `e` being an events row, `a` an alert row, `wallet` the watched wallet's column. */
const eventColumns = (wallet = "e.wallet_address") => `a.alert_id as "alertId", e.id::text as id,
  ${wallet} as wallet_address, e.token_address as token_address, e.amount_usd::float8 as amount_usd,
  e.tx_hash as tx_hash,
  e.block_number::float8 as block_number, (extract(epoch from e.timestamp) * 1000)::float8 as "timeMs"`;
/** Names and symbols for what `m` matched, in chain order per alert. */
const named = (matches: string) => `
  select m.*, coalesce(t.name, '') as name, coalesce(t.symbol, '') as symbol
    from (${matches}) m left join tokens t on t.address = m.token_address
   order by m."alertId", m.block_number, m.id`;
const token = "(a.token is null or a.token = e.token_address)";

/**
 * $1-$5: per alert and action, the alert, wallet, token (null: any), action and minimum USD;
 * $6, $7: the blocks after $6 up to $7. Swaps by the wallet on its side, transfers to it, and
 * the tokens it created (a launch is a tokens row, not an event; its id is launch:<token>).
 */
const WALLET_EVENTS = `
  with a as (select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[])
                  a(alert_id, wallet, token, action, min_usd)),
       e as (select * from events where block_number > $6::bigint and block_number <= $7::bigint)
  ${named(`
    select ${eventColumns()}, a.action as type, null::text as from_address
      from e join a on a.wallet = e.wallet_address and a.action = e.direction
     where e.type = 'swap' and ${token} and e.amount_usd >= a.min_usd
    union all
    select ${eventColumns("e.to_address")}, 'receive', e.wallet_address
      from e join a on a.wallet = e.to_address and a.action = 'receive'
     where e.type = 'transfer' and ${token} and e.amount_usd >= a.min_usd
    union all
    select a.alert_id, 'launch:' || tk.address, tk.creator, tk.address, 0::float8, coalesce(tk.created_tx, ''),
           tk.created_block::float8, (extract(epoch from tk.created_at) * 1000)::float8, 'launch', null
      from tokens tk join a on a.wallet = tk.creator and a.action = 'launch'
     where tk.created_block > $6::bigint and tk.created_block <= $7::bigint
       and (a.token is null or a.token = tk.address)`)}`;

/**
 * $1-$3: per alert, the alert, token (null: any) and minimum USD; $4, $5: the blocks. Buys by
 * wallets classified smart_money now; alerts on one token join on it, alerts on any token take
 * every buy.
 */
const SMART_MONEY_BUYS = `
  with a as (select * from unnest($1::text[], $2::text[], $3::float8[]) a(alert_id, token, min_usd)),
       e as (select e.* from events e join wallets w on w.address = e.wallet_address
              where e.block_number > $4::bigint and e.block_number <= $5::bigint
                and e.type = 'swap' and e.direction = 'buy' and w.classification = 'smart_money')
  ${named(`
    select ${eventColumns()}, 'buy' as type, null::text as from_address from e join a on a.token = e.token_address
     where e.amount_usd >= a.min_usd
    union all
    select ${eventColumns()}, 'buy', null from e join a on a.token is null where e.amount_usd >= a.min_usd`)}`;

type Query = { text: string; params: unknown[] };

function walletQuery(alerts: EventAlert[], after: number, upTo: number): Query {
  const rows = alerts.flatMap((a) => {
    const c = a.conditions as WalletConditions;
    return c.actions.map((action) => [a.id, c.wallet_address, c.token_address ?? null, action, c.min_amount_usd ?? 0]);
  });
  const column = (i: number) => rows.map((r) => r[i]);
  return { text: WALLET_EVENTS, params: [column(0), column(1), column(2), column(3), column(4), after, upTo] };
}

function smartMoneyQuery(alerts: EventAlert[], after: number, upTo: number): Query {
  const conditions = alerts.map((a) => a.conditions as SmartMoneyConditions);
  const tokens = conditions.map((c) => c.token_address ?? null);
  const minimums = conditions.map((c) => c.min_amount_usd ?? 0);
  return { text: SMART_MONEY_BUYS, params: [alerts.map((a) => a.id), tokens, minimums, after, upTo] };
}

/** Each event kind's one query over a block batch. */
const QUERIES: Record<EventKind, (alerts: EventAlert[], after: number, upTo: number) => Query> = {
  wallet: walletQuery,
  smart_money: smartMoneyQuery,
};

const al = names(alertsTable);
/**
 * Fires the live alerts $2 at $1 under their row locks (a smart-money alert only while its
 * account's plan has them); returns those.
 */
const LOCK_FIRINGS = `${updateSql(
  alertsTable,
  { lastTriggeredAt: "$1::timestamptz" },
  "from api_keys k, accounts acc, plans p",
  `t.${al.id} = any($2::text[]) and ${liveKey("t")} and t.${al.status} = 'active'
   and acc.id = t.${al.accountId} and p.id = acc.plan and (t.${al.kind} <> 'smart_money' or p.smart_money_alerts)`,
)} returning t.${al.id} as id`;

/** The same notification for the same alert and events, however often the batch is evaluated. */
const idempotencyKey = (alertId: string, events: readonly { id: string }[]) =>
  `ntf_${createHash("sha256")
    .update(`${alertId}:${events.map((e) => e.id).join(",")}`)
    .digest("base64url")
    .slice(0, 24)}`;

/**
 * One evaluation of the live event alerts: the blocks new since the last (event-blocks.ts),
 * recent enough to fire (`freshSince`), each kind's one query, one notification per alert with
 * matches, committed with the blocks remembered.
 */
export async function evaluateEventAlerts(sql: Sql, alerts: EventAlert[], now: Date, freshSince: Date) {
  // Blocks are remembered without alerts too: an alert fires on the blocks indexed after it is made.
  const range = await eventRange(sql, freshSince);
  if (!range?.due) return { blocks: 0, events: 0, fired: 0 } satisfies EventReport;
  const { after, to: upTo } = range;
  const matched: Matched[] = [];
  if (upTo > after) {
    for (const [kind, query] of Object.entries(QUERIES)) {
      const ofKind = alerts.filter((a) => a.kind === kind);
      if (ofKind.length === 0) continue;
      const { text, params } = query(ofKind, after, upTo);
      matched.push(...(await sql.unsafe<Matched[]>(text, params as never[])));
    }
  }
  const firings = await firingsOf(sql, matched, now);
  const fired = await commit(sql, range, firings, now);
  return { blocks: Math.max(0, upTo - after), events: matched.length, fired } satisfies EventReport;
}

type Keyed = { key: string; firing: Firing };

async function firingsOf(sql: Sql, matched: Matched[], now: Date): Promise<Keyed[]> {
  const byAlert = new Map<string, AlertEvent[]>();
  for (const { alertId, timeMs, ...e } of matched) {
    const list = byAlert.get(alertId) ?? [];
    byAlert.set(alertId, list);
    list.push({ ...e, timestamp: new Date(timeMs).toISOString() });
  }
  if (byAlert.size === 0) return [];
  return (await loadTargets(sql, [...byAlert.keys()])).map((a) => {
    const events = byAlert.get(a.id)!;
    const firing = firingOf(a, {
      type: "alert.triggered",
      alert: { id: a.id, name: a.name, kind: a.kind, conditions: a.conditions },
      triggered_at: now.toISOString(),
      matches: [],
      total_matches: 0,
      events: events.slice(0, MAX_LISTED_MATCHES),
      total_events: events.length,
    });
    return { key: idempotencyKey(a.id, events), firing };
  });
}

/** Commits the firings still live and the range as evaluated, together; returns how many fired. */
async function commit(sql: Sql, range: EventRange, firings: Keyed[], now: Date): Promise<number> {
  return sql.begin(async (tx) => {
    let fired = 0;
    if (firings.length) {
      const ids = firings.map((f) => f.firing.alertId);
      const rows = await tx.unsafe<{ id: string }[]>(LOCK_FIRINGS, [now.toISOString(), ids]);
      const locked = new Set(rows.map((r) => r.id));
      const made = firings.filter((f) => locked.has(f.firing.alertId)).map((f) => notificationRow(f.firing, f.key));
      await insertRows(tx, notifications, made, { onConflict: { target: ["idempotencyKey"], action: "nothing" } });
      fired = made.length;
    }
    await rememberRange(tx, range);
    return fired;
  });
}
