import { names, tableName } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { events, tokens, wallets } from "@/db/schema";
import {
  type ChainEvent,
  type EventKind,
  eventFires,
  type SmartMoneyConditions,
  type WalletConditions,
  walletActionOf,
} from "@/lib/domain/alert-conditions";
import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
import type { AlertEvent } from "./payload";

/**
 * Which events fire the wallet and smart-money alerts. The worker reads a block batch's events
 * once, in one statement, and matches every live alert against them in memory through an index
 * of the alerts by wallet and token (never a query per alert); the builder's preview reads one
 * alert's candidates over a day through the wallet's or the token's index. Both decide with
 * eventFires (lib/domain/alert-conditions.ts), the one rule.
 */
export type EventAlert = { id: string; kind: EventKind; conditions: WalletConditions | SmartMoneyConditions };

/** An event an alert matched, with the alert. */
export type MatchedEvent = AlertEvent & { alertId: string };

/** A batch's event: what the rule reads, and what else a notification says of it. */
type BatchEvent = ChainEvent & Pick<AlertEvent, "id" | "tx_hash" | "block_number" | "timestamp" | "name" | "symbol">;
type Row = Omit<BatchEvent, "timestamp"> & { timeMs: number };

/** Blocks after `after` up to and including `upTo`. */
export type Blocks = { after: number; upTo: number };

/** What narrows the events read: only these wallets' (trading or receiving), one token's, smart-money buys. */
type Narrowing = { wallets?: string[]; token?: string; smartBuys?: boolean };

const ev = names(events);
const wa = names(wallets);
const tok = names(tokens);
const [EVENTS, WALLETS, TOKENS] = [events, wallets, tokens].map(tableName);

/**
 * The statement reading the swaps and transfers of the blocks' id range ($1, $2: ids are
 * block * EVENT_ID_BLOCK_FACTOR + position), narrowed from $3 on, and the tokens the wallets $n
 * launched in the blocks.
 */
function batchStatement(blocks: Blocks, narrow: Narrowing, launchers: string[]) {
  const params: unknown[] = [(blocks.after + 1) * EVENT_ID_BLOCK_FACTOR, (blocks.upTo + 1) * EVENT_ID_BLOCK_FACTOR];
  const param = (value: unknown) => `$${params.push(value)}`;
  const where = [`e.${ev.id} >= $1::bigint`, `e.${ev.id} < $2::bigint`, `e.${ev.type} in ('swap', 'transfer')`];
  if (narrow.wallets) {
    const w = param(narrow.wallets);
    where.push(`(e.${ev.walletAddress} = any(${w}::text[]) or e.${ev.toAddress} = any(${w}::text[]))`);
  }
  if (narrow.token) where.push(`e.${ev.tokenAddress} = ${param(narrow.token)}`);
  if (narrow.smartBuys)
    where.push(`e.${ev.type} = 'swap' and e.${ev.direction} = 'buy' and w.${wa.classification} = 'smart_money'`);
  const events = `
    select e.${ev.id}::text as id, e.${ev.type}, e.${ev.direction}, e.${ev.walletAddress} as wallet,
           e.${ev.toAddress} as "to", e.${ev.tokenAddress} as token, e.${ev.amountUsd}::float8 as "amountUsd",
           coalesce(w.${wa.classification} = 'smart_money', false) as "smartMoney", e.${ev.txHash} as tx_hash,
           e.${ev.blockNumber}::float8 as block_number,
           (extract(epoch from e.${ev.timestamp}) * 1000)::float8 as "timeMs"
      from ${EVENTS} e left join ${WALLETS} w on e.${ev.type} = 'swap' and w.${wa.address} = e.${ev.walletAddress}
     where ${where.join(" and ")}`;
  const launches = launchers.length
    ? `union all
    select 'launch:' || tk.${tok.address}, 'launch', null, tk.${tok.creator}, null, tk.${tok.address}, 0::float8, false,
           coalesce(tk.${tok.createdTx}, ''),
           tk.${tok.createdBlock}::float8, (extract(epoch from tk.${tok.createdAt}) * 1000)::float8
      from ${TOKENS} tk
     where tk.${tok.creator} = any(${param(launchers)}::text[])
       and tk.${tok.createdBlock} > ${param(blocks.after)}::bigint and tk.${tok.createdBlock} <= ${param(blocks.upTo)}::bigint
       ${narrow.token ? `and tk.${tok.address} = ${param(narrow.token)}` : ""}`
    : "";
  const text = `
    select b.*, coalesce(t.${tok.name}, '') as name, coalesce(t.${tok.symbol}, '') as symbol
      from (${events} ${launches}) b left join ${TOKENS} t on t.${tok.address} = b.token
     order by b.block_number, b.id`;
  return { text, params };
}

async function readBatch(sql: Sql, blocks: Blocks, narrow: Narrowing, launchers: string[]): Promise<BatchEvent[]> {
  if (blocks.upTo <= blocks.after) return [];
  const { text, params } = batchStatement(blocks, narrow, launchers);
  const rows = await sql.unsafe<Row[]>(text, params as never[]);
  return rows.map(({ timeMs, ...e }) => ({ ...e, timestamp: new Date(timeMs).toISOString() }));
}

/**
 * An event as a notification tells it: the wallet whose action it is (a transfer's receiver), and a receipt's
 * sender.
 */
function alertEvent(e: BatchEvent): AlertEvent {
  const { wallet, action } = walletActionOf(e)!;
  const { id, name, symbol, tx_hash, block_number, timestamp } = e;
  const from_address = e.type === "transfer" ? e.wallet : null;
  return {
    id,
    type: action,
    wallet_address: wallet,
    from_address,
    token_address: e.token,
    name,
    symbol,
    amount_usd: e.amountUsd,
    tx_hash,
    block_number,
    timestamp,
  };
}

/** The alerts that can fire on an event, looked up by what the event is of: candidates for eventFires. */
class AlertIndex {
  private readonly byWallet = new Map<string, EventAlert[]>();
  private readonly byToken = new Map<string, EventAlert[]>();
  private readonly anyToken: EventAlert[] = [];
  readonly launchers = new Set<string>();

  constructor(alerts: readonly EventAlert[]) {
    const add = (map: Map<string, EventAlert[]>, key: string, a: EventAlert) =>
      map.set(key, [...(map.get(key) ?? []), a]);
    for (const a of alerts) {
      if (a.kind === "wallet") {
        const c = a.conditions as WalletConditions;
        add(this.byWallet, c.wallet_address, a);
        if (c.actions.includes("launch")) this.launchers.add(c.wallet_address);
      } else if (a.conditions.token_address) add(this.byToken, a.conditions.token_address, a);
      else this.anyToken.push(a);
    }
  }

  candidates(e: BatchEvent): EventAlert[] {
    const act = walletActionOf(e);
    const ofWallet = act ? (this.byWallet.get(act.wallet) ?? []) : [];
    if (!e.smartMoney) return ofWallet;
    return [...ofWallet, ...(this.byToken.get(e.token) ?? []), ...this.anyToken];
  }
}

/** Each alert's events of `events` (in chain order), by eventFires. */
function match(index: AlertIndex, events: readonly BatchEvent[]): MatchedEvent[] {
  const matched: MatchedEvent[] = [];
  for (const e of events) {
    for (const a of index.candidates(e)) {
      if (!eventFires(a.kind, a.conditions, e)) continue;
      matched.push({ ...alertEvent(e), alertId: a.id });
    }
  }
  return matched;
}

/** The events of a block batch that fire `alerts`: one statement whatever the number of alerts. */
export async function matchEvents(sql: Sql, alerts: readonly EventAlert[], blocks: Blocks): Promise<MatchedEvent[]> {
  if (alerts.length === 0) return [];
  const index = new AlertIndex(alerts);
  return match(index, await readBatch(sql, blocks, {}, [...index.launchers]));
}

/** The events of the blocks that fire one alert, read through its wallet's or token's index (the preview's day). */
export async function matchAlertEvents(sql: Sql, alert: EventAlert, blocks: Blocks): Promise<MatchedEvent[]> {
  const index = new AlertIndex([alert]);
  const narrow: Narrowing =
    alert.kind === "wallet"
      ? { wallets: [(alert.conditions as WalletConditions).wallet_address], token: alert.conditions.token_address }
      : { smartBuys: true, token: alert.conditions.token_address };
  return match(index, await readBatch(sql, blocks, narrow, [...index.launchers]));
}
