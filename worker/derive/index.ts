import type { Funding } from "../indexer/fetch";
import type { Tx } from "../indexer/sql";
import type { ChainState } from "../indexer/state";
import type { RangeRows } from "../indexer/transform";
import type { ChainProfile } from "../profiles";
import { applyTransfers } from "./balances";
import { mergeRangeCandles } from "./candles";
import { type Head, refreshPoolLiquidity, refreshRanking, refreshTokenMetrics } from "./metrics";
import { applyPositions } from "./positions";
import { refreshTokenScores, refreshWalletScores } from "./scores";
import { refreshTraderFlows } from "./trader-flows";
import { linkFunders, refreshWalletValues, upsertWalletActivity } from "./wallets";

/** What a range changed, for the price-dependent refresh that follows it. */
export type Touched = { tokens: string[]; wallets: string[] };

/** What one refresh transaction covers: tokens, pools (addresses) and wallets. */
export type RefreshScope = { tokens: string[]; pools: string[]; wallets: string[] };

/** Tokens and wallets per slice of a full refresh. */
const TOKENS_PER_SLICE = 200;
const WALLETS_PER_SLICE = 1_000;

/** What live ranges touched: their tokens with those tokens' pools, and their wallets. */
export function touchedScope(state: ChainState, touched: Touched): RefreshScope {
  const tokens = touched.tokens.filter((t) => state.tokens.has(t));
  return { tokens, pools: [...new Set(tokens.flatMap((t) => (state.poolsByToken.get(t) ?? []).map((p) => p.address)))], wallets: touched.wallets };
}

/**
 * A full refresh as slices, each refreshed in a transaction of its own (so a refresh can give way
 * to a new block between them and go on after it): every pool with the first, the tokens a slice at
 * a time, then the wallets, whose scores read their tokens' scores.
 */
export async function fullRefreshScopes(tx: Tx, state: ChainState): Promise<RefreshScope[]> {
  const tokens = [...state.tokens.keys()];
  const wallets = (await tx<{ address: string }[]>`select address from wallets order by address`).map((r) => r.address);
  const scopes: RefreshScope[] = [{ tokens: [], pools: [...state.pools.keys()], wallets: [] }];
  for (let i = 0; i < tokens.length; i += TOKENS_PER_SLICE) scopes.push({ tokens: tokens.slice(i, i + TOKENS_PER_SLICE), pools: [], wallets: [] });
  for (let i = 0; i < wallets.length; i += WALLETS_PER_SLICE) scopes.push({ tokens: [], pools: [], wallets: wallets.slice(i, i + WALLETS_PER_SLICE) });
  return scopes;
}

/**
 * Derived state of a range just written, in its transaction: balances, supplies and holder
 * counts, positions, wallet activity and funders, candles. Returns what it touched.
 */
export async function deriveRange(tx: Tx, state: ChainState, profile: ChainProfile, fromBlock: number, rows: RangeRows, fundings: Funding[]): Promise<Touched> {
  await applyTransfers(tx, state, rows.transfers, "stored");
  await applyPositions(tx, state, rows.transfers, "stored");
  await upsertWalletActivity(tx, profile, { fromBlock });
  await mergeRangeCandles(tx, fromBlock);
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
 * The figures that move with prices and time, as of `head`: token metrics, traders' recent flows, pool liquidity,
 * scores, ranking, wallet PnL and portfolio value, of the scope's tokens (those still indexed),
 * pools and wallets.
 */
export async function refreshDerived(tx: Tx, state: ChainState, scope: RefreshScope, head: Head) {
  const tokens = scope.tokens.filter((t) => state.tokens.has(t));
  const pools = scope.pools.flatMap((a) => state.pools.get(a) ?? []);
  await refreshTokenMetrics(tx, state, tokens, head);
  await refreshTraderFlows(tx, tokens, head);
  await refreshPoolLiquidity(tx, state, pools, head);
  await refreshTokenScores(tx, state, tokens, head);
  await refreshRanking(tx, tokens);
  await refreshWalletValues(tx, scope.wallets);
  // After the token scores: a wallet's record reads its tokens' rug flags and wash evidence.
  const turned = await refreshWalletScores(tx, scope.wallets, head);
  // Then the tokens of wallets that became or ceased to be smart money are scored again, so a score
  // never depends on whether its holders were scored before or after it. Those flags do not read
  // smart money, so the wallets' records stand.
  const rescored = await tokensPositionedIn(tx, state, turned);
  await refreshTokenScores(tx, state, rescored, head);
  await refreshRanking(tx, rescored);
}

/** The indexed tokens `wallets` have positions in. */
async function tokensPositionedIn(tx: Tx, state: ChainState, wallets: string[]): Promise<string[]> {
  if (wallets.length === 0) return [];
  const rows = await tx<{ token: string }[]>`select distinct token_address as token from wallet_positions where wallet = any(${wallets}::text[]) order by 1`;
  return rows.map((r) => r.token).filter((t) => state.tokens.has(t));
}
