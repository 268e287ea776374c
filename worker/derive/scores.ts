import { compositeRisk, riskLevel } from "@/lib/scoring/risk";
import { rampScore } from "@/lib/scoring/ramp";
import type { RiskFlag } from "@/lib/scoring/vocab";
import { CONCENTRATED_OWNERSHIP_FLAG, HOLDER_CONCENTRATION_SCORE, METHOD_VERSION } from "@/lib/scoring/weights";
import { BURN_ADDRESSES } from "@/lib/tokens/holders";
import type { Tx } from "../indexer/sql";

/**
 * PROVISIONAL token scores: the one place the worker scores tokens. Only the holder-concentration
 * dimension is measured (with the scoring library's ramps and flag thresholds); the liquidity,
 * wash-trade and smart-money dimensions are written as 0 until the worker gathers the inputs of
 * lib/scoring's scoreTokenRisk, which will replace the body of this module.
 */
export const PROVISIONAL_METHOD = `provisional/${METHOD_VERSION}`;

/** Holders counted into concentration: the largest real holders (the tail barely moves HHI). */
const TOP_HOLDERS = 100;

export async function refreshTokenScores(tx: Tx, tokens: string[]) {
  if (tokens.length === 0) return;
  const rows = await tx.unsafe<{ address: string; shares: number[] | null }[]>(
    `select t.address,
            (select array_agg((b.amount / nullif(t.total_supply, 0))::float8 order by b.amount desc, b.holder)
               from (select b.amount, b.holder from balances b
                      where b.token_address = t.address and b.amount > 0 and b.holder <> all($2::text[])
                        and b.holder <> t.address and not exists (select 1 from pools p where p.address = b.holder)
                      order by b.amount desc, b.holder limit ${TOP_HOLDERS}) b) as shares
       from tokens t where t.address = any($1::text[])`,
    [tokens, [...BURN_ADDRESSES]],
  );
  const scored = rows.map((r) => {
    const shares = (r.shares ?? []).filter((s) => s !== null);
    const top10 = shares.slice(0, 10).reduce((a, b) => a + b, 0);
    const top1 = shares[0] ?? 0;
    const hhi = shares.reduce((a, s) => a + s * s, 0);
    const concentration = rampScore({ top10_share: top10, hhi, top1_share: top1 }, HOLDER_CONCENTRATION_SCORE);
    const flags: RiskFlag[] =
      top10 >= CONCENTRATED_OWNERSHIP_FLAG.top10_share || top1 >= CONCENTRATED_OWNERSHIP_FLAG.top1_share ? ["concentrated_ownership"] : [];
    const dimensions = { holder_concentration_score: concentration, liquidity_stability_score: 0, wash_trade_score: 0, smart_money_flow_score: 0 };
    const risk = compositeRisk(dimensions, flags);
    return { address: r.address, risk, level: riskLevel(risk), flags, concentration };
  });
  await tx.unsafe(
    `insert into token_scores (address, risk_score, risk_level, flags, holder_concentration_score, liquidity_stability_score,
                               wash_trade_score, smart_money_flow_score, method_version, updated_at)
     select address, risk, level, coalesce(string_to_array(nullif(flags, ''), ','), '{}'), concentration, 0, 0, 0, $6, now()
       from unnest($1::text[], $2::float8[], $3::text[], $4::text[], $5::float8[]) s(address, risk, level, flags, concentration)
     on conflict (address) do update set risk_score = excluded.risk_score, risk_level = excluded.risk_level, flags = excluded.flags,
       holder_concentration_score = excluded.holder_concentration_score, method_version = excluded.method_version, updated_at = now()
     where (token_scores.risk_score, token_scores.flags, token_scores.holder_concentration_score, token_scores.method_version)
       is distinct from (excluded.risk_score, excluded.flags, excluded.holder_concentration_score, excluded.method_version)`,
    [
      scored.map((s) => s.address),
      scored.map((s) => s.risk),
      scored.map((s) => s.level),
      scored.map((s) => s.flags.join(",")),
      scored.map((s) => s.concentration),
      PROVISIONAL_METHOD,
    ],
  );
}
