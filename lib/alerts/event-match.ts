import type { Sql } from "@/db/client";
import type { EventKind, SmartMoneyConditions, WalletConditions } from "@/lib/domain/alert-conditions";
import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
import type { AlertEvent } from "./payload";

/**
 * Which events fire a wallet or smart-money alert, declared once: the worker reads a block
 * batch for every live alert of a kind (worker/alerts/event-alerts.ts), the builder's preview a
 * day for one alert (preview.ts), through the same statement. Each kind is one query whatever
 * the number of alerts: the alerts come as unnest arrays joined to the events. The blocks are
 * bounded by event id (ids are block * EVENT_ID_BLOCK_FACTOR + position), so a batch reads the
 * primary key's range and one alert's day reads its wallet's or token's index.
 */
export type EventAlert = { id: string; kind: EventKind; conditions: WalletConditions | SmartMoneyConditions };

/** An event an alert matched, with the alert. */
export type MatchedEvent = AlertEvent & { alertId: string };

type Row = Omit<AlertEvent, "timestamp"> & { alertId: string; timeMs: number };

/** The columns of a matched event, `e` being an events row, `a` an alert row, `wallet` the watched wallet's column. */
const eventColumns = (wallet = "e.wallet_address") => `a.alert_id as "alertId", e.id::text as id,
  ${wallet} as wallet_address, e.token_address as token_address, e.amount_usd::float8 as amount_usd,
  e.tx_hash as tx_hash, e.block_number::float8 as block_number,
  (extract(epoch from e.timestamp) * 1000)::float8 as "timeMs"`;
/** Names and symbols for what `m` matched, in chain order per alert. */
const named = (matches: string) => `
  select m.*, coalesce(t.name, '') as name, coalesce(t.symbol, '') as symbol
    from (${matches}) m left join tokens t on t.address = m.token_address
   order by m."alertId", m.block_number, m.id`;
const token = "(a.token is null or a.token = e.token_address)";
/** The events of blocks after $after up to $upTo, by their ids: [$from, $to). */
const ids = (from: number, to: number) => `e.id >= $${from}::bigint and e.id < $${to}::bigint`;

/**
 * $1-$5: per alert and action, the alert, wallet, token (null: any), action and minimum USD;
 * $6, $7: the ids of the blocks; $8, $9: the blocks (after $8, up to $9). Swaps by the wallet
 * on its side, transfers to it, and the tokens it created (a launch is a tokens row, not an
 * event; its id is launch:<token>).
 */
const WALLET_EVENTS = `
  with a as (select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[])
                  a(alert_id, wallet, token, action, min_usd))
  ${named(`
    select ${eventColumns()}, a.action as type, null::text as from_address
      from a join events e on e.wallet_address = a.wallet and e.direction = a.action
     where ${ids(6, 7)} and e.type = 'swap' and ${token} and e.amount_usd >= a.min_usd
    union all
    select ${eventColumns("e.to_address")}, 'receive', e.wallet_address
      from a join events e on e.to_address = a.wallet
     where a.action = 'receive' and ${ids(6, 7)} and e.type = 'transfer' and ${token} and e.amount_usd >= a.min_usd
    union all
    select a.alert_id, 'launch:' || tk.address, tk.creator, tk.address, 0::float8, coalesce(tk.created_tx, ''),
           tk.created_block::float8, (extract(epoch from tk.created_at) * 1000)::float8, 'launch', null
      from a join tokens tk on tk.creator = a.wallet
     where a.action = 'launch' and tk.created_block > $8::bigint and tk.created_block <= $9::bigint
       and (a.token is null or a.token = tk.address)`)}`;

/**
 * $1-$3: per alert, the alert, token (null: any) and minimum USD; $4, $5: the ids of the blocks.
 * Buys by wallets classified smart_money now; alerts on one token join on it, alerts on any
 * token take every such buy.
 */
const SMART_MONEY_BUYS = `
  with a as (select * from unnest($1::text[], $2::text[], $3::float8[]) a(alert_id, token, min_usd)),
       e as (select e.* from events e join wallets w on w.address = e.wallet_address
              where ${ids(4, 5)} and e.type = 'swap' and e.direction = 'buy' and w.classification = 'smart_money')
  ${named(`
    select ${eventColumns()}, 'buy' as type, null::text as from_address from e join a on a.token = e.token_address
     where e.amount_usd >= a.min_usd
    union all
    select ${eventColumns()}, 'buy', null from e join a on a.token is null where e.amount_usd >= a.min_usd`)}`;

type Query = { text: string; params: unknown[] };
type Blocks = { after: number; upTo: number };
const idRange = ({ after, upTo }: Blocks) => [(after + 1) * EVENT_ID_BLOCK_FACTOR, (upTo + 1) * EVENT_ID_BLOCK_FACTOR];

function walletQuery(alerts: EventAlert[], blocks: Blocks): Query {
  const rows = alerts.flatMap((a) => {
    const c = a.conditions as WalletConditions;
    return c.actions.map((action) => [a.id, c.wallet_address, c.token_address ?? null, action, c.min_amount_usd ?? 0]);
  });
  const column = (i: number) => rows.map((r) => r[i]);
  const columns = [column(0), column(1), column(2), column(3), column(4)];
  return { text: WALLET_EVENTS, params: [...columns, ...idRange(blocks), blocks.after, blocks.upTo] };
}

function smartMoneyQuery(alerts: EventAlert[], blocks: Blocks): Query {
  const conditions = alerts.map((a) => a.conditions as SmartMoneyConditions);
  const tokens = conditions.map((c) => c.token_address ?? null);
  const minimums = conditions.map((c) => c.min_amount_usd ?? 0);
  return { text: SMART_MONEY_BUYS, params: [alerts.map((a) => a.id), tokens, minimums, ...idRange(blocks)] };
}

const QUERIES: Record<EventKind, (alerts: EventAlert[], blocks: Blocks) => Query> = {
  wallet: walletQuery,
  smart_money: smartMoneyQuery,
};

/**
 * The events of the blocks after `after` up to `upTo` that fire `alerts`, by alert, each alert's
 * in chain order: one query per kind present.
 */
export async function matchEvents(sql: Sql, alerts: readonly EventAlert[], blocks: Blocks): Promise<MatchedEvent[]> {
  const matched: MatchedEvent[] = [];
  if (blocks.upTo <= blocks.after) return matched;
  for (const [kind, query] of Object.entries(QUERIES)) {
    const ofKind = alerts.filter((a) => a.kind === kind);
    if (ofKind.length === 0) continue;
    const { text, params } = query(ofKind, blocks);
    for (const { timeMs, ...e } of await sql.unsafe<Row[]>(text, params as never[])) {
      matched.push({ ...e, timestamp: new Date(timeMs).toISOString() });
    }
  }
  return matched;
}
