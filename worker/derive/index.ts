import type { Funding } from "../indexer/fetch";
import type { Tx } from "../indexer/sql";
import type { ChainState } from "../indexer/state";
import type { RangeRows } from "../indexer/transform";
import type { ChainProfile } from "../profiles";
import { applyTransfers } from "./balances";
import { type Head, refreshPoolLiquidity, refreshRanking, refreshTokenMetrics } from "./metrics";
import { applyPositions } from "./positions";
import { refreshTokenScores, refreshWalletScores } from "./scores";
import { linkFunders, refreshWalletValues, upsertWalletActivity } from "./wallets";

/** What a range changed, for the price-dependent refresh that follows it. */
export type Touched = { tokens: string[]; wallets: string[] };

/**
 * Derived state of a range just written, in its transaction: balances, supplies and holder
 * counts, positions, wallet activity and funders. Returns what it touched.
 */
export async function deriveRange(tx: Tx, state: ChainState, profile: ChainProfile, fromBlock: number, rows: RangeRows, fundings: Funding[]): Promise<Touched> {
  await applyTransfers(tx, state, rows.transfers, "stored");
  await applyPositions(tx, state, rows.transfers, "stored");
  await upsertWalletActivity(tx, profile, { fromBlock });
  const actors = rows.events.flatMap((e) => (e.to ? [e.wallet, e.to] : [e.wallet]));
  await linkFunders(tx, [...new Set([...actors, ...fundings.map((f) => f.wallet)])]);

  const tokens = new Set<string>();
  for (const t of rows.transfers) if (state.tokens.has(t.token)) tokens.add(t.token);
  for (const e of rows.events) tokens.add(e.token);
  for (const r of rows.reserves) {
    const p = state.pools.get(r.pool)!;
    for (const t of [p.token0, p.token1]) if (state.tokens.has(t)) tokens.add(t);
  }
  const holders = rows.transfers.filter((t) => state.tokens.has(t.token)).flatMap((t) => [t.from, t.to]);
  return { tokens: [...tokens], wallets: [...new Set([...actors, ...holders])] };
}

/**
 * The figures that move with prices and time, as of `head`: token metrics, pool liquidity,
 * scores, ranking, wallet PnL and portfolio value. "all" after a backfill, a reorg or when idle.
 * `between` runs before each step (it may throw to abandon the transaction).
 */
export async function refreshDerived(tx: Tx, state: ChainState, scope: Touched | "all", head: Head, between?: () => Promise<void>) {
  const tokens = scope === "all" ? [...state.tokens.keys()] : scope.tokens;
  const pools = scope === "all" ? [...state.pools.values()] : [...new Set(tokens.flatMap((t) => state.poolsByToken.get(t) ?? []))];
  const wallets = scope === "all" ? "all" : scope.wallets;
  const steps = [
    () => refreshTokenMetrics(tx, state, tokens, head),
    () => refreshPoolLiquidity(tx, state, pools),
    () => refreshTokenScores(tx, state, tokens, head),
    () => refreshRanking(tx, tokens),
    () => refreshWalletValues(tx, wallets),
    // After the token scores: a wallet's record reads its tokens' rug flags and wash evidence.
    () => refreshWalletScores(tx, wallets, head),
  ];
  for (const step of steps) {
    await between?.();
    await step();
  }
}
