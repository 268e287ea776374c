import { concurrently, type InTx, names, PREPARED, tableName } from "@/db/bulk";
import { walletPositions } from "@/db/schema";
import type { Funding } from "../indexer/range";
import type { Tx } from "../indexer/sql";
import type { ChainState } from "../indexer/state";
import type { RangeRows } from "../indexer/transform";
import type { ChainProfile } from "../profiles";
import { applyTransfers, type StoredBalances } from "./balances";
import { mergeRangeCandles } from "./candles";
import type { Held } from "./held";
import { type Head, refreshPoolLiquidity, refreshRanking, refreshTokenMetrics } from "./metrics";
import { applyPositions } from "./positions";
import { refreshTokenScores, refreshWalletScores } from "./scores";
import { KeptTokens } from "./scoring/token-inputs";
import { refreshTraderFlows } from "./trader-flows";
import { linkFunders, refreshWalletValues, upsertWalletActivity } from "./wallets";

/** What a range changed, for the price-dependent refresh that follows it. */
export type Touched = { tokens: string[]; wallets: string[] };

/**
 * What one refresh transaction covers: tokens, pools (addresses) and wallets. `unscored`: of the
 * tokens, those whose figures are refreshed but whose scores wait; `walletsUnscored`: the wallets'
 * scores wait too (worker/indexer/score-cadence.ts decides). `rescore`: tokens only scored again;
 * `rescoreLater`: the tokens of wallets that turned are returned, not scored again here (a full
 * refresh scores them once, after its last wallet slice). `earlier`: token risk parts kept by earlier
 * transactions of the same refresh, when nothing was indexed between them.
 */
export type RefreshScope = {
  tokens: string[];
  pools: string[];
  wallets: string[];
  unscored?: string[];
  walletsUnscored?: boolean;
  rescore?: string[];
  rescoreLater?: boolean;
  earlier?: KeptTokens;
};

/** A refresh's outcome: the tokens it left to be scored again, and the rows each token it scored read. */
export type Refreshed = { rescore: string[]; scoringRows: Map<string, number> };

/** What live ranges touched: their tokens with those tokens' pools, and their wallets. */
export function touchedScope(state: ChainState, touched: Touched): RefreshScope {
  const tokens = touched.tokens.filter((t) => state.tokens.has(t));
  return {
    tokens,
    pools: [...new Set(tokens.flatMap((t) => (state.poolsByToken.get(t) ?? []).map((p) => p.address)))],
    wallets: touched.wallets,
  };
}

/**
 * Derived state of a range just written, in its transaction: balances, supplies and holder
 * counts, positions, wallet activity and funders, candles. A bulk load (`held`, held.ts) folds
 * balances and positions into what it holds (`before` reads them) and leaves the candles, the
 * wallets' activity and their funders, to write each once when its backfill ends.
 */
export async function deriveRange(
  tx: InTx,
  state: ChainState,
  profile: ChainProfile,
  fromBlock: number,
  rows: RangeRows,
  fundings: Funding[],
  before: StoredBalances,
  held: Held | null = null,
) {
  // The folds send their reads first; the database then runs the wallet activity and candles
  // while the thread folds balances and positions. Neither reads what the folds write (the
  // activity reads tokens and pools for their addresses, which the supplies' updates leave).
  const balances = applyTransfers(tx, state, rows.transfers, before);
  const positions = applyPositions(tx, state, rows, held?.positions ?? "stored");
  const paid = fundings.map((f) => f.wallet);
  if (held) {
    held.wallets.stage(state, rows.events, paid);
    return concurrently([balances, positions]);
  }
  const created = upsertWalletActivity(tx, profile, { fromBlock });
  await concurrently([balances, positions, created, mergeRangeCandles(tx, fromBlock)]);
  // After the activity: a wallet's funder is set on its row. Only a wallet the range created or
  // paid can take a funder (wallet_funding keeps a wallet's first payment), so only those are
  // linked, not every wallet the range saw: a late range of the 25,000-token fixture sees some
  // 12,000 wallets and creates about 100.
  await linkFunders(tx, [...new Set([...(await created), ...paid])]);
}

/**
 * What a written range touched: the tokens (still indexed) and wallets whose price-dependent
 * figures a live range's refresh follows with. Only live ranges ask: a backfill is followed by a
 * full refresh.
 */
export function touchedBy(state: ChainState, rows: RangeRows): Touched {
  const tokens = new Set<string>();
  for (const t of rows.transfers) if (state.tokens.has(t.token)) tokens.add(t.token);
  for (const e of rows.events) tokens.add(e.token);
  for (const r of rows.reserves) {
    const p = state.pools.get(r.pool);
    for (const t of p ? [p.token0, p.token1] : []) if (state.tokens.has(t)) tokens.add(t);
  }
  const holders = rows.transfers.filter((t) => state.tokens.has(t.token)).flatMap((t) => [t.from, t.to]);
  return { tokens: [...tokens], wallets: [...new Set([...actorsOf(rows), ...holders])] };
}

const actorsOf = (rows: RangeRows) => rows.events.flatMap((e) => (e.to ? [e.wallet, e.to] : [e.wallet]));

/**
 * The figures that move with prices and time, as of `head`: token metrics, traders' recent flows, pool liquidity,
 * scores, ranking, wallet PnL and portfolio value, of the scope's tokens (those still indexed),
 * pools and wallets. Returns the tokens it leaves to be scored again (scope.rescoreLater) and the
 * rows of input each token it scored read.
 */
export async function refreshDerived(tx: Tx, state: ChainState, scope: RefreshScope, head: Head): Promise<Refreshed> {
  const tokens = scope.tokens.filter((t) => state.tokens.has(t));
  const pools = scope.pools.flatMap((a) => state.pools.get(a) ?? []);
  const earlier = (scope.earlier ?? new KeptTokens()).asOf(head);
  const unscored = new Set(scope.unscored);
  await refreshTokenMetrics(tx, state, tokens, head);
  await refreshTraderFlows(tx, tokens, head);
  await refreshPoolLiquidity(tx, state, pools, head);
  const scoringRows = await refreshTokenScores(
    tx,
    state,
    tokens.filter((t) => !unscored.has(t)),
    head,
    earlier,
  );
  await refreshRanking(tx, tokens);
  await refreshWalletValues(tx, scope.wallets);
  // After the token scores: a wallet's record reads its tokens' rug flags and wash evidence.
  const turned = scope.walletsUnscored ? [] : await refreshWalletScores(tx, scope.wallets, head);
  // Then the tokens of wallets that became or ceased to be smart money are scored again, so a score
  // never depends on whether its holders were scored before or after it. Those flags do not read
  // smart money, so the wallets' records stand; the tokens' other inputs have not moved either.
  const positioned = await tokensPositionedIn(tx, state, turned);
  if (scope.rescoreLater) return { rescore: positioned, scoringRows };
  const rescored = [...new Set([...positioned, ...(scope.rescore ?? [])])].filter((t) => state.tokens.has(t));
  for (const [t, rows] of await refreshTokenScores(tx, state, rescored, head, earlier)) scoringRows.set(t, rows);
  await refreshRanking(tx, rescored);
  return { rescore: [], scoringRows };
}

const wp = names(walletPositions);
/** The tokens the wallets $1 have positions in. */
const POSITIONED_IN = `select distinct ${wp.tokenAddress} as token from ${tableName(walletPositions)}
  where ${wp.wallet} = any($1::text[]) order by 1`;

/** The indexed tokens `wallets` have positions in. */
async function tokensPositionedIn(tx: Tx, state: ChainState, wallets: string[]): Promise<string[]> {
  if (wallets.length === 0) return [];
  const rows = await tx.unsafe<{ token: string }[]>(POSITIONED_IN, [wallets], PREPARED);
  return rows.map((r) => r.token).filter((t) => state.tokens.has(t));
}
