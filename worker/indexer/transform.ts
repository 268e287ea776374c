import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
import { usd, valueUsd } from "../derive/prices";
import type { ChainLog } from "./decode";
import type { BlockData, RangeData } from "./fetch";
import type { ChainState, PoolState } from "./state";

/**
 * How a token transfer moved value, from the side of the address that is not the pair:
 * a swap leg (buy: out of the pair, sell: into it), a liquidity leg, a mint, a plain transfer,
 * or a move of a pair's own LP token. "reconcile" is no log: a correction the indexer wrote
 * where the token's events disagreed with its balanceOf and totalSupply (worker/derive/reconcile.ts).
 */
export type TransferKind = "buy" | "sell" | "lp_add" | "lp_remove" | "mint" | "transfer" | "lp" | "reconcile";

export type TransferRow = {
  block: number;
  logIndex: number;
  token: string;
  from: string;
  to: string;
  amount: bigint;
  txHash: string;
  txFrom: string;
  kind: TransferKind;
  /** USD value when it moved: the swap's or liquidity change's own value for legs. */
  amountUsd: number;
  timestamp: number;
};

export type ReserveRow = { pool: string; block: number; logIndex: number; reserve0: bigint; reserve1: bigint };

export type EventType = "swap" | "liquidity_add" | "liquidity_remove" | "transfer";
export type EventRow = {
  id: number;
  type: EventType;
  wallet: string;
  to: string | null;
  token: string;
  pool: string | null;
  tokenAmount: bigint;
  amountUsd: number;
  direction: "buy" | "sell" | null;
  block: number;
  logIndex: number;
  txHash: string;
  timestamp: number;
};

/** The rows a range adds, in chain order. */
export type RangeRows = { transfers: TransferRow[]; reserves: ReserveRow[]; events: EventRow[] };

/**
 * events.id of a block never rolled back: the chain position, monotonic in chain order. A block
 * indexed again after a reorg numbers its events after its tombstones (write.ts
 * numberAfterTombstones), in the same per-block range, so ids are never reused.
 */
export const eventId = (block: number, logIndex: number) => block * EVENT_ID_BLOCK_FACTOR + logIndex;

const ZERO = "0x0000000000000000000000000000000000000000";

type PoolAction = { kind: "swap" | "mint" | "burn"; tokenAmount: bigint; tokenSideUsd: number };

/** Which side of a pair is the indexed token and which is its quote; null for quote/quote pairs. */
function sides(state: ChainState, p: PoolState) {
  if (state.tokens.has(p.token0)) return { tokenIs0: true, token: p.token0, quote: p.token1 };
  if (state.tokens.has(p.token1)) return { tokenIs0: false, token: p.token1, quote: p.token0 };
  return null;
}

/**
 * Turns a range's logs into rows, one transaction at a time and in chain order, moving the pool
 * reserves of `state` with each Sync so every value is priced as of its own log. A token movement
 * that is a leg of a swap or liquidity change in the same transaction is kept as a transfer fact
 * (balances need it) but not listed as a transfer event. The trader is the transaction's sender.
 */
export function transformRange(data: RangeData, state: ChainState): RangeRows {
  const out: RangeRows = { transfers: [], reserves: [], events: [] };
  let start = 0;
  for (let i = 1; i <= data.logs.length; i++) {
    const prev = data.logs[i - 1];
    const next = data.logs[i];
    if (next && next.block === prev.block && next.txHash === prev.txHash) continue;
    transformTx(data.logs.slice(start, i), data.blocks.get(prev.block)!, state, out);
    start = i;
  }
  return out;
}

function transformTx(logs: ChainLog[], block: BlockData, state: ChainState, out: RangeRows) {
  const txFrom = block.txFrom.get(logs[0].txHash) ?? ZERO;
  const kinds = new Map<string, PoolAction["kind"]>();
  for (const l of logs) {
    if ((l.kind === "swap" || l.kind === "mint" || l.kind === "burn") && state.pools.has(l.address) && kinds.get(l.address) !== "swap") {
      kinds.set(l.address, l.kind);
    }
  }
  const actions = new Map<string, PoolAction>();
  const legs: { row: TransferRow; pool: string }[] = [];
  const base = (l: ChainLog) => ({ block: l.block, logIndex: l.logIndex, txHash: l.txHash, timestamp: block.timestamp });

  for (const l of logs) {
    const pool = state.pools.get(l.address);
    if (l.kind === "transfer") {
      if (pool) {
        out.transfers.push({ ...base(l), token: l.address, from: l.from, to: l.to, amount: l.value, txFrom, kind: "lp", amountUsd: 0 });
        continue;
      }
      if (!state.tokens.has(l.address)) continue;
      const legPool = kinds.has(l.from) ? l.from : kinds.has(l.to) ? l.to : null;
      const kind = l.from === ZERO ? "mint" : legPool ? legKind(kinds.get(legPool)!, legPool === l.from) : "transfer";
      const row: TransferRow = { ...base(l), token: l.address, from: l.from, to: l.to, amount: l.value, txFrom, kind, amountUsd: 0 };
      out.transfers.push(row);
      if (legPool) {
        legs.push({ row, pool: legPool });
      } else {
        row.amountUsd = valueUsd(state, l.address, l.value);
        if (kind === "transfer") {
          out.events.push({
            ...base(l),
            id: eventId(l.block, l.logIndex),
            type: "transfer",
            wallet: l.from,
            to: l.to,
            token: l.address,
            pool: null,
            tokenAmount: l.value,
            amountUsd: row.amountUsd,
            direction: null,
          });
        }
      }
      continue;
    }
    if (!pool) continue;
    if (l.kind === "sync") {
      pool.reserve0 = l.reserve0;
      pool.reserve1 = l.reserve1;
      out.reserves.push({ pool: pool.address, block: l.block, logIndex: l.logIndex, reserve0: l.reserve0, reserve1: l.reserve1 });
      continue;
    }
    if (l.kind !== "swap" && l.kind !== "mint" && l.kind !== "burn") continue;
    const s = sides(state, pool);
    if (!s) continue;
    const pick = (a0: bigint, a1: bigint) => (s.tokenIs0 ? [a0, a1] : [a1, a0]);
    let tokenAmount: bigint;
    let quoteAmount: bigint;
    let direction: "buy" | "sell" | null = null;
    if (l.kind === "swap") {
      const [tIn, qIn] = pick(l.amount0In, l.amount1In);
      const [tOut, qOut] = pick(l.amount0Out, l.amount1Out);
      direction = tOut > tIn ? "buy" : "sell";
      tokenAmount = direction === "buy" ? tOut - tIn : tIn - tOut;
      quoteAmount = direction === "buy" ? qIn - qOut : qOut - qIn;
    } else {
      [tokenAmount, quoteAmount] = pick(l.amount0, l.amount1);
    }
    const tokenSideUsd = valueUsd(state, s.quote, quoteAmount < 0n ? -quoteAmount : quoteAmount);
    actions.set(pool.address, { kind: l.kind, tokenAmount, tokenSideUsd });
    out.events.push({
      ...base(l),
      id: eventId(l.block, l.logIndex),
      type: l.kind === "swap" ? "swap" : l.kind === "mint" ? "liquidity_add" : "liquidity_remove",
      wallet: txFrom,
      to: null,
      token: s.token,
      pool: pool.address,
      tokenAmount,
      // A liquidity change moves both sides, each worth the quote side.
      amountUsd: l.kind === "swap" ? tokenSideUsd : 2 * tokenSideUsd,
      direction,
    });
  }
  for (const { row, pool } of legs) {
    const a = actions.get(pool);
    if (a && a.tokenAmount > 0n) row.amountUsd = usd((a.tokenSideUsd * Number(row.amount)) / Number(a.tokenAmount));
  }
}

function legKind(action: PoolAction["kind"], outOfPool: boolean): TransferKind {
  if (action === "swap") return outOfPool ? "buy" : "sell";
  return action === "mint" ? "lp_add" : "lp_remove";
}
