import { deterministicSummary, type RiskDimension, scoreTokenRisk, scoreWallet, summaryFactsHash, summaryInputFrom, summaryInputHash } from "@/lib/scoring";
import type { Tx } from "../indexer/sql";
import type { ChainState } from "../indexer/state";
import type { Head } from "./metrics";
import { summaryUpgrades } from "./scoring/summaries";
import { gatherTokenInputs } from "./scoring/token-inputs";
import { gatherWalletInputs } from "./scoring/wallet-inputs";

/**
 * The one place the worker scores tokens and wallets: it gathers lib/scoring's inputs in batched
 * queries, scores, and writes token_scores and wallet_scores (token_metrics mirrors risk_score and
 * flags through refreshRanking, in the same transaction).
 */

/** Wallets are scored in chunks so a full refresh does not hold every wallet's trades at once. */
const WALLET_CHUNK = 2_000;

export async function refreshTokenScores(tx: Tx, state: ChainState, tokens: string[], head: Head) {
  await applyUpgradedSummaries(tx);
  if (tokens.length === 0) return;
  const gathered = await gatherTokenInputs(tx, state, tokens, head);
  const stored = await tx.unsafe<{ address: string; hash: string | null }[]>(
    `select address, summary_input_hash as hash from token_scores where address = any($1::text[])`,
    [tokens],
  );
  const storedHash = new Map(stored.map((s) => [s.address, s.hash]));
  const scored = gathered.map(({ input, description }) => {
    const risk = scoreTokenRisk(input);
    const summaryInput = summaryInputFrom(description, description, risk);
    const hash = summaryInputHash(summaryInput);
    const facts = summaryFactsHash(summaryInput);
    if (storedHash.get(input.token.address) !== hash) summaryUpgrades.request(input.token.address, summaryInput, facts);
    return { address: input.token.address, risk, hash, facts, summary: deterministicSummary(summaryInput) };
  });
  const col = <T>(f: (s: (typeof scored)[number]) => T) => scored.map(f);
  const dim = (k: RiskDimension) => col((s) => s.risk.dimensions[k]);
  // The stored text (a model's, perhaps) stays while the figures it was written from are the
  // same exactly; otherwise the deterministic paragraph of this transaction's figures replaces it.
  await tx.unsafe(
    `insert into token_scores (address, risk_score, risk_level, flags, holder_concentration_score, liquidity_stability_score,
                               wash_trade_score, smart_money_flow_score, early_mover_count, early_mover_net_activity,
                               avg_reputation_top10, flag_evidence, adjustments, method_version, ai_summary, summary_input_hash,
                               summary_facts_hash, signals_missing, updated_at)
     select address, risk, level, coalesce(string_to_array(nullif(flags, ''), ','), '{}'), hc, ls, wt, sm, emc, ema, rep,
            evidence::jsonb, adjustments::jsonb, method, summary, hash, facts, coalesce(string_to_array(nullif(signals, ''), ','), '{}'), now()
       from unnest($1::text[], $2::float8[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::float8[], $8::float8[],
                   $9::int4[], $10::text[], $11::float8[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[])
            s(address, risk, level, flags, hc, ls, wt, sm, emc, ema, rep, evidence, adjustments, method, summary, hash, facts, signals)
     on conflict (address) do update set risk_score = excluded.risk_score, risk_level = excluded.risk_level, flags = excluded.flags,
       holder_concentration_score = excluded.holder_concentration_score, liquidity_stability_score = excluded.liquidity_stability_score,
       wash_trade_score = excluded.wash_trade_score, smart_money_flow_score = excluded.smart_money_flow_score,
       early_mover_count = excluded.early_mover_count, early_mover_net_activity = excluded.early_mover_net_activity,
       avg_reputation_top10 = excluded.avg_reputation_top10, flag_evidence = excluded.flag_evidence,
       adjustments = excluded.adjustments, method_version = excluded.method_version,
       summary_input_hash = excluded.summary_input_hash, signals_missing = excluded.signals_missing, summary_facts_hash = excluded.summary_facts_hash,
       ai_summary = case when token_scores.summary_facts_hash is not distinct from excluded.summary_facts_hash
                         then token_scores.ai_summary else excluded.ai_summary end,
       updated_at = now()`,
    [
      col((s) => s.address),
      col((s) => s.risk.riskScore),
      col((s) => s.risk.riskLevel),
      col((s) => s.risk.flags.join(",")),
      dim("holder_concentration_score"),
      dim("liquidity_stability_score"),
      dim("wash_trade_score"),
      dim("smart_money_flow_score"),
      col((s) => s.risk.earlyMoverCount),
      col((s) => s.risk.earlyMoverNetActivity),
      col((s) => s.risk.avgReputationTop10),
      col((s) => JSON.stringify(s.risk.flagEvidence)),
      col((s) => JSON.stringify(s.risk.adjustments)),
      col((s) => s.risk.methodVersion),
      col((s) => s.summary),
      col((s) => s.hash),
      col((s) => s.facts),
      col((s) => s.risk.signalsMissing.join(",")),
    ],
  );
}

/** Model-written summaries that arrived since the last refresh, kept only where the figures have not moved at all. */
async function applyUpgradedSummaries(tx: Tx) {
  const upgrades = summaryUpgrades.take();
  if (upgrades.length === 0) return;
  await tx.unsafe(
    `update token_scores s set ai_summary = u.text from unnest($1::text[], $2::text[], $3::text[]) u(address, facts, text)
      where s.address = u.address and s.summary_facts_hash = u.facts`,
    [upgrades.map((u) => u.address), upgrades.map((u) => u.factsHash), upgrades.map((u) => u.text)],
  );
}

/** wallet_scores and wallets.classification of `wallets` (every wallet for "all"), as of `head`. */
export async function refreshWalletScores(tx: Tx, wallets: string[] | "all", head: Head) {
  const list = wallets === "all" ? (await tx.unsafe<{ address: string }[]>(`select address from wallets order by address`)).map((r) => r.address) : wallets;
  for (let i = 0; i < list.length; i += WALLET_CHUNK) await scoreWalletChunk(tx, list.slice(i, i + WALLET_CHUNK), head);
}

async function scoreWalletChunk(tx: Tx, wallets: string[], head: Head) {
  const inputs = await gatherWalletInputs(tx, wallets, head);
  if (inputs.length === 0) return;
  const scored = inputs.map((input) => ({ address: input.address, s: scoreWallet(input) }));
  const col = <T>(f: (x: (typeof scored)[number]) => T) => scored.map(f);
  await tx.unsafe(
    `with s as (
       select * from unnest($1::text[], $2::float8[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::float8[], $8::float8[],
                            $9::text[], $10::int4[], $11::int4[], $12::text[])
         s(address, rep, confidence, class, win, entry, consistency, drawdown, adjustments, closed, trades, method)),
     written as (
       insert into wallet_scores (address, reputation_score, confidence, classification, win_rate, entry_timing_score,
                                  consistency_score, risk_drawdown_score, adjustments, closed_positions, trade_count, method_version,
                                  updated_at)
       select address, rep, confidence, class, win, entry, consistency, drawdown, adjustments::jsonb, closed, trades, method, now() from s
       on conflict (address) do update set reputation_score = excluded.reputation_score, confidence = excluded.confidence,
         classification = excluded.classification, win_rate = excluded.win_rate, entry_timing_score = excluded.entry_timing_score,
         consistency_score = excluded.consistency_score, risk_drawdown_score = excluded.risk_drawdown_score,
         adjustments = excluded.adjustments, closed_positions = excluded.closed_positions,
         trade_count = excluded.trade_count, method_version = excluded.method_version, updated_at = now())
     update wallets w set classification = s.class from s where w.address = s.address and w.classification is distinct from s.class`,
    [
      col((x) => x.address),
      col((x) => x.s.reputationScore),
      col((x) => x.s.confidence),
      col((x) => x.s.classification),
      col((x) => x.s.dimensions.win_rate),
      col((x) => x.s.dimensions.entry_timing_score),
      col((x) => x.s.dimensions.consistency_score),
      col((x) => x.s.dimensions.risk_drawdown_score),
      col((x) => JSON.stringify(x.s.adjustments)),
      col((x) => x.s.closedPositions),
      col((x) => x.s.tradeCount),
      col((x) => x.s.methodVersion),
    ],
  );
}
