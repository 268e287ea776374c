import { names } from "@/db/bulk";
import { events } from "@/db/schema";
import type { Trade } from "@/lib/scoring";

const ev = names(events);

/** A swap as both scoring inputs read it from events `e`: its token and trader, and lib/scoring's Trade. */
export const SWAP_FIELDS = `e.${ev.tokenAddress} as token, e.${ev.walletAddress} as wallet,
  e.${ev.direction} as direction, e.${ev.tokenAmount}::float8 as amount, e.${ev.amountUsd} as usd,
  e.${ev.blockNumber} as block, extract(epoch from e.${ev.timestamp})::float8 as ts, e.${ev.txHash} as tx_hash`;

/**
 * Events `e` of several tokens, each token's in id order (as a caller groups them by token). Not in id order
 * alone: that tempts the planner to walk the whole of events by its primary key, whatever share the tokens hold.
 */
export const BY_TOKEN_IN_ID_ORDER = `e.${ev.tokenAddress}, e.${ev.id}`;

/** A row of SWAP_FIELDS (block is int8: postgres.js reads it as a string). */
export type SwapRow = {
  token: string;
  wallet: string;
  direction: "buy" | "sell";
  amount: number;
  usd: number;
  block: string;
  ts: number;
  tx_hash: string;
};

/**
 * The Trade of a swap row, with `extra` fields of the caller's. Built as one literal: objects made by
 * spreading another function's result (`{ ...toTrade(r), wallet }`) each get a hidden class of their
 * own in V8 (Node 20), 30 times as slow to build and 20 times as slow to read (20,000 rows).
 */
export const toTrade = <E extends object>(r: SwapRow, extra: E): Trade & E => ({
  direction: r.direction,
  tokenAmount: r.amount,
  amountUsd: r.usd,
  block: Number(r.block),
  timestamp: r.ts,
  txHash: r.tx_hash,
  ...extra,
});
