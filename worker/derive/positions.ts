import { insertRows, PREPARED, type Tx } from "@/db/bulk";
import { walletPositions } from "@/db/schema";
import { isRealHolder } from "@/lib/tokens/holders";
import type { ChainState } from "../indexer/state";
import type { TransferRow } from "../indexer/transform";
import { usd } from "./prices";

export type Position = {
  wallet: string;
  token: string;
  quantity: bigint;
  costBasisUsd: number;
  realizedPnlUsd: number;
  boughtUsd: number;
  soldUsd: number;
  unknownCostQuantity: bigint;
  buyCount: number;
  sellCount: number;
  firstBuyBlock: number | null;
  lastTradeBlock: number | null;
};

/** A wallet's position in a token before its first movement. */
export const emptyPosition = (wallet: string, token: string): Position => ({
  wallet,
  token,
  quantity: 0n,
  costBasisUsd: 0,
  realizedPnlUsd: 0,
  boughtUsd: 0,
  soldUsd: 0,
  unknownCostQuantity: 0n,
  buyCount: 0,
  sellCount: 0,
  firstBuyBlock: null,
  lastTradeBlock: null,
});

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * Average-cost accounting of one token movement for the wallet on `side`. Buys and liquidity
 * removals bring tokens at a known USD cost; transfers and mints in bring them at unknown cost
 * (counted at zero, and remembered, which lowers pnl_confidence). Every outgoing movement takes
 * its share of the cost basis and of the unknown-cost quantity (all of them when the books show
 * less than it moves); a sell realizes profit or loss, and a fee-on-transfer token's fee on a
 * sell or liquidity leg realizes its cost as a loss (those tokens are gone for nothing).
 */
export function applyMovement(p: Position, t: TransferRow, side: "in" | "out") {
  if (side === "in") {
    p.quantity += t.amount;
    if (t.kind === "buy" || t.kind === "lp_remove") p.costBasisUsd += t.amountUsd;
    // Never more of unknown cost than is held (after a quantity below zero: tokens spent before their opening balance was known).
    else p.unknownCostQuantity = min(p.unknownCostQuantity + t.amount, p.quantity > 0n ? p.quantity : 0n);
    if (t.kind === "buy") {
      p.boughtUsd += t.amountUsd;
      p.buyCount += 1;
      p.firstBuyBlock ??= t.block;
      p.lastTradeBlock = t.block;
    }
    return;
  }
  const all = p.quantity <= 0n || t.amount >= p.quantity;
  const cost = all ? p.costBasisUsd : (p.costBasisUsd * Number(t.amount)) / Number(p.quantity);
  p.costBasisUsd -= cost;
  p.unknownCostQuantity -= all ? p.unknownCostQuantity : (p.unknownCostQuantity * t.amount) / p.quantity;
  p.quantity -= t.amount;
  if (t.kind === "fee") p.realizedPnlUsd -= cost;
  if (t.kind === "sell") {
    p.realizedPnlUsd += t.amountUsd - cost;
    p.soldUsd += t.amountUsd;
    p.sellCount += 1;
    p.lastTradeBlock = t.block;
  }
}

type StoredPosition = {
  wallet: string;
  token_address: string;
  quantity: string;
  cost_basis_usd: number;
  realized_pnl_usd: number;
  bought_usd: number;
  sold_usd: number;
  unknown_cost_quantity: string;
  buy_count: number;
  sell_count: number;
  first_buy_block: string | null;
  last_trade_block: string | null;
};

/**
 * Folds token transfers (chain order) into wallet positions, from the stored positions when
 * appending a range or from nothing when rebuilding a token after a reorg. Pairs, burn
 * addresses and the token itself hold no positions.
 */
export async function applyPositions(tx: Tx, state: ChainState, transfers: TransferRow[], from: "stored" | "zero") {
  const positions = new Map<string, Position>();
  const sides: [TransferRow, "in" | "out", string][] = [];
  for (const t of transfers) {
    if (!state.tokens.has(t.token)) continue;
    if (isRealHolder(t.from, t.token, state.nonHolders)) sides.push([t, "out", t.from]);
    if (isRealHolder(t.to, t.token, state.nonHolders)) sides.push([t, "in", t.to]);
  }
  for (const [t, , wallet] of sides) positions.set(`${wallet}:${t.token}`, emptyPosition(wallet, t.token));
  if (positions.size === 0) return;

  if (from === "stored") {
    const keys = [...positions.values()];
    const stored = await tx.unsafe<StoredPosition[]>(
      `select p.wallet, p.token_address, p.quantity::text, p.cost_basis_usd, p.realized_pnl_usd, p.bought_usd, p.sold_usd,
              p.unknown_cost_quantity::text, p.buy_count, p.sell_count, p.first_buy_block, p.last_trade_block
         from wallet_positions p join unnest($1::text[], $2::text[]) k(wallet, token)
           on p.wallet = k.wallet and p.token_address = k.token`,
      [keys.map((k) => k.wallet), keys.map((k) => k.token)],
      PREPARED,
    );
    for (const s of stored) {
      Object.assign(positions.get(`${s.wallet}:${s.token_address}`)!, {
        quantity: BigInt(s.quantity),
        costBasisUsd: s.cost_basis_usd,
        realizedPnlUsd: s.realized_pnl_usd,
        boughtUsd: s.bought_usd,
        soldUsd: s.sold_usd,
        unknownCostQuantity: BigInt(s.unknown_cost_quantity),
        buyCount: s.buy_count,
        sellCount: s.sell_count,
        firstBuyBlock: s.first_buy_block === null ? null : Number(s.first_buy_block),
        lastTradeBlock: s.last_trade_block === null ? null : Number(s.last_trade_block),
      });
    }
  }
  for (const [t, side, wallet] of sides) applyMovement(positions.get(`${wallet}:${t.token}`)!, t, side);

  await insertRows(
    tx,
    walletPositions,
    [...positions.values()].map((p) => ({
      wallet: p.wallet,
      tokenAddress: p.token,
      quantity: p.quantity,
      costBasisUsd: usd(p.costBasisUsd),
      realizedPnlUsd: usd(p.realizedPnlUsd),
      boughtUsd: usd(p.boughtUsd),
      soldUsd: usd(p.soldUsd),
      unknownCostQuantity: p.unknownCostQuantity,
      buyCount: p.buyCount,
      sellCount: p.sellCount,
      firstBuyBlock: p.firstBuyBlock,
      lastTradeBlock: p.lastTradeBlock,
    })),
    { onConflict: { target: ["wallet", "tokenAddress"], action: "update" } },
  );
}
