import { insertRows, names, type Tx, tableName, updateRows } from "@/db/bulk";
import { tokenScores, walletScores, wallets } from "@/db/schema";
import {
  deterministicSummary,
  finishTokenRisk,
  recentSwaps,
  scoreTokenRiskWithParts,
  scoreWallet,
  smartMoneyFlow,
  summaryFactsHash,
  summaryInputFrom,
  summaryInputHash,
  type TokenRiskResult,
} from "@/lib/scoring";
import type { ChainState } from "../indexer/state";
import type { Head } from "./metrics";
import { mapPausing } from "./pausing";
import { summaryUpgrades } from "./scoring/summaries";
import {
  type AgainToken,
  type GatheredToken,
  gatherTokenInputs,
  type KeptTokens,
  rowsOf,
  type TokenDescription,
} from "./scoring/token-inputs";
import { gatherWalletInputs } from "./scoring/wallet-inputs";

/**
 * The one place the worker scores tokens and wallets: it gathers lib/scoring's inputs in batched
 * queries, scores, and writes token_scores and wallet_scores (token_metrics mirrors risk_score and
 * flags through refreshRanking, in the same transaction).
 */

/** Tokens and wallets are scored in chunks so a refresh does not hold every one's inputs at once. */
export const TOKEN_CHUNK = 2_000;
export const WALLET_CHUNK = 5_000;

/** The transaction's time, for the updated_at of an upsert's update. */
const now = () => "now()";

const ts = names(tokenScores);
const ws = names(walletScores);

/**
 * `earlier`: risk parts kept earlier in the same refresh (KeptTokens), and where this one's are kept. Returns
 * the rows of input each token's scoring read (rowsOf), what scoring it again will cost.
 */
export async function refreshTokenScores(
  tx: Tx,
  state: ChainState,
  tokens: string[],
  head: Head,
  earlier: KeptTokens,
): Promise<Map<string, number>> {
  const rows = new Map<string, number>();
  for (let i = 0; i < tokens.length; i += TOKEN_CHUNK)
    await scoreTokenChunk(tx, state, tokens.slice(i, i + TOKEN_CHUNK), head, earlier, rows);
  return rows;
}

type Scored = {
  address: string;
  risk: TokenRiskResult;
  description: TokenDescription;
  scoringRows: number;
};

/** Scores a token from its whole input, and keeps its risk parts in `earlier` for a second scoring. */
function scoreFresh({ input, description }: GatheredToken, earlier: KeptTokens): Scored {
  const address = input.token.address;
  const { risk, parts } = scoreTokenRiskWithParts(input);
  const scoringRows = rowsOf(input);
  earlier.keep({ address, parts, description, rows: scoringRows - input.smartMoney.length });
  return { address, risk, description, scoringRows };
}

/** Scores a token again from its kept parts and its smart money now. */
function scoreAgain(t: AgainToken): Scored {
  const flow = smartMoneyFlow(t.smartMoney, recentSwaps(t.smartMoneySwaps, t.parts.now));
  return {
    address: t.address,
    risk: finishTokenRisk(t.parts, flow),
    description: t.description,
    scoringRows: t.rows + t.smartMoney.length,
  };
}

async function scoreTokenChunk(
  tx: Tx,
  state: ChainState,
  tokens: string[],
  head: Head,
  earlier: KeptTokens,
  rows: Map<string, number>,
) {
  const { fresh, again } = await gatherTokenInputs(tx, state, tokens, head, earlier);
  const stored = await tx.unsafe<{ address: string; hash: string | null }[]>(
    `select ${ts.address} as address, ${ts.summaryInputHash} as hash from ${tableName(tokenScores)}
      where ${ts.address} = any($1::text[])`,
    [tokens],
  );
  const storedHash = new Map(stored.map((s) => [s.address, s.hash]));
  const scored = await mapPausing(tx, [...fresh, ...again], (t) => {
    const { address, risk, description, scoringRows } = "input" in t ? scoreFresh(t, earlier) : scoreAgain(t);
    rows.set(address, scoringRows);
    const summaryInput = summaryInputFrom(description, description, risk);
    const hash = summaryInputHash(summaryInput);
    const facts = summaryFactsHash(summaryInput);
    if (storedHash.get(address) !== hash) summaryUpgrades.request(address, summaryInput, facts);
    return { address, risk, hash, facts, summary: deterministicSummary(summaryInput) };
  });
  // The stored text (a model's, perhaps) stays while the figures it was written from are the
  // same exactly; otherwise the deterministic paragraph of this transaction's figures replaces it.
  const factsHash = ts.summaryFactsHash;
  await insertRows(
    tx,
    tokenScores,
    scored.map((s) => ({
      address: s.address,
      riskScore: s.risk.riskScore,
      riskLevel: s.risk.riskLevel,
      flags: s.risk.flags,
      holderConcentrationScore: s.risk.dimensions.holder_concentration_score,
      liquidityStabilityScore: s.risk.dimensions.liquidity_stability_score,
      washTradeScore: s.risk.dimensions.wash_trade_score,
      smartMoneyFlowScore: s.risk.dimensions.smart_money_flow_score,
      earlyMoverCount: s.risk.earlyMoverCount,
      earlyMoverNetActivity: s.risk.earlyMoverNetActivity,
      reputationHolders: s.risk.reputationHolders,
      flagEvidence: s.risk.flagEvidence,
      adjustments: s.risk.adjustments,
      methodVersion: s.risk.methodVersion,
      aiSummary: s.summary,
      summaryInputHash: s.hash,
      summaryFactsHash: s.facts,
      signalsMissing: s.risk.signalsMissing,
    })),
    {
      onConflict: {
        target: ["address"],
        action: "update",
        set: {
          aiSummary: (stored, excluded) =>
            `case when t.${factsHash} is not distinct from excluded.${factsHash} then ${stored} else ${excluded} end`,
          updatedAt: now,
        },
      },
    },
  );
}

/**
 * Model-written summaries that arrived since the last refresh, kept only where the figures have
 * not moved at all. Taken from the queue: run it where the transaction is no longer given up.
 */
export async function applyUpgradedSummaries(tx: Tx) {
  const upgrades = summaryUpgrades.take();
  if (upgrades.length === 0) return;
  await updateRows(
    tx,
    tokenScores,
    upgrades.map((u) => ({ address: u.address, summaryFactsHash: u.factsHash, aiSummary: u.text })),
    { match: ["address", "summaryFactsHash"] },
  );
}

/**
 * wallet_scores and wallets.classification of `wallets`, as of `head`. Returns the wallets that
 * became or ceased to be smart money: their tokens' smart-money flow moved.
 */
export async function refreshWalletScores(tx: Tx, wallets: string[], head: Head): Promise<string[]> {
  const turned: string[] = [];
  for (let i = 0; i < wallets.length; i += WALLET_CHUNK)
    turned.push(...(await scoreWalletChunk(tx, wallets.slice(i, i + WALLET_CHUNK), head)));
  return turned;
}

async function scoreWalletChunk(tx: Tx, addresses: string[], head: Head): Promise<string[]> {
  const inputs = await gatherWalletInputs(tx, addresses, head);
  if (inputs.length === 0) return [];
  const scored = await mapPausing(tx, inputs, (input) => ({ address: input.address, s: scoreWallet(input) }));
  const wasSmart = new Set(
    (
      await tx.unsafe<{ address: string }[]>(
        `select ${ws.address} as address from ${tableName(walletScores)}
          where ${ws.address} = any($1::text[]) and ${ws.classification} = 'smart_money'`,
        [scored.map((w) => w.address)],
      )
    ).map((r) => r.address),
  );
  await insertRows(
    tx,
    walletScores,
    scored.map(({ address, s }) => ({
      address,
      reputationScore: s.reputationScore,
      confidence: s.confidence,
      classification: s.classification,
      winRate: s.dimensions.win_rate,
      entryTimingScore: s.dimensions.entry_timing_score,
      consistencyScore: s.dimensions.consistency_score,
      riskDrawdownScore: s.dimensions.risk_drawdown_score,
      adjustments: s.adjustments,
      closedPositions: s.closedPositions,
      tradeCount: s.tradeCount,
      methodVersion: s.methodVersion,
    })),
    { onConflict: { target: ["address"], action: "update", set: { updatedAt: now } } },
  );
  await updateRows(
    tx,
    wallets,
    scored.map(({ address, s }) => ({ address, classification: s.classification })),
    { match: ["address"], onlyChanged: true },
  );
  return scored
    .filter(({ address, s }) => wasSmart.has(address) !== (s.classification === "smart_money"))
    .map((w) => w.address);
}
