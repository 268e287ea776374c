/**
 * Scores a person can check, over a whole simulated history (simulator, indexer, worker, the
 * API's read models): every published score is its breakdown under the documented weights plus
 * its adjustments, redone here by hand from the response alone; a dimension without data is named
 * with a reason, weighs 0 and carries its documented no-evidence value; planted ruggers, dumping
 * insiders and smart money score as they behaved; a summary states the figures served beside it;
 * a token that still trades has a market cap; flag evidence says which condition raised it, in
 * words.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { GroundTruth } from "@/devchain/simulator/ground-truth";
import { readableMetrics } from "@/lib/scoring/evidence-labels";
import { formatUsd } from "@/lib/scoring/format";
import { REPUTATION_NO_EVIDENCE, RISK_NO_EVIDENCE } from "@/lib/scoring/no-evidence";
import { riskLevel } from "@/lib/scoring/risk";
import { REPUTATION_CAPS, REPUTATION_WEIGHTS, RISK_WEIGHTS } from "@/lib/scoring/weights";
import { runSeed, type Scored } from "./run-seed";

const SEED = 2;
const SIZE = { days: 3, tokens: 24, wallets: 150 };

type Bound = { reason: string; min_score: number } | { reason: string; max_score: number };
type Published = {
  dimensions: Record<string, number>;
  missing_dimensions: { dimension: string }[];
  adjustments: Bound[];
};

/** Half up to 0.1, as by hand (docs/methodology.md, Composites). */
const round1 = (x: number) => Math.round(x * 10 + 1e-9) / 10;

/** The documented rule, written out: Σ w·d / Σ w over dimensions with data, then the bounds, to 0.1. */
function recompute(weights: Record<string, number>, { dimensions, missing_dimensions, adjustments }: Published) {
  const missing = new Set(missing_dimensions.map((m) => m.dimension));
  let sum = 0;
  let total = 0;
  for (const [k, w] of Object.entries(weights)) {
    if (missing.has(k)) continue;
    sum += w * dimensions[k];
    total += w;
  }
  const weighted = round1(total > 0 ? sum / total : 0);
  const floor = Math.max(0, ...adjustments.flatMap((a) => ("min_score" in a ? [a.min_score] : [])));
  const cap = Math.min(100, ...adjustments.flatMap((a) => ("max_score" in a ? [a.max_score] : [])));
  return { weighted, score: round1(Math.min(Math.max(weighted, floor), cap)) };
}

describe(`published scores of seed ${SEED}`, { timeout: 60_000 }, () => {
  let truth: GroundTruth;
  let published: Scored["published"];

  beforeAll(async () => {
    ({
      truth,
      scored: { published },
    } = await runSeed(SEED, SIZE, () => {}, { snapshots: [1] }));
  }, 240_000);

  it("are each token's breakdown under the documented weights plus its adjustments, exactly", () => {
    expect(published.tokens.length).toBeGreaterThanOrEqual(SIZE.tokens);
    for (const t of published.tokens) {
      const { weighted, score } = recompute(RISK_WEIGHTS, t);
      expect({ token: t.address, weighted, score }).toEqual({
        token: t.address,
        weighted: t.weighted_score,
        score: t.risk_score,
      });
      expect(t.risk_level).toBe(riskLevel(t.risk_score));
    }
    // Floors do their work, and are named where they do.
    expect(published.tokens.some((t) => t.risk_score > t.weighted_score)).toBe(true);
    for (const t of published.tokens.filter((x) => x.risk_score > x.weighted_score))
      expect(t.adjustments.length).toBeGreaterThan(0);
  });

  it("are each wallet's breakdown (win rate ×100) under the documented weights plus its adjustments, exactly", () => {
    for (const w of published.wallets) {
      const { weighted, score } = recompute(REPUTATION_WEIGHTS, {
        ...w,
        dimensions: { ...w.dimensions, win_rate: w.dimensions.win_rate * 100 },
      });
      expect({ wallet: w.address, weighted, score }).toEqual({
        wallet: w.address,
        weighted: w.weighted_score,
        score: w.reputation_score,
      });
    }
    expect(published.wallets.some((w) => w.reputation_score < w.weighted_score)).toBe(true);
  });

  it("say which dimensions have no data and why, weigh them 0 and serve their no-evidence value", () => {
    const all = [
      ...published.tokens.map((s) => ({ s, noEvidence: RISK_NO_EVIDENCE as Record<string, number> })),
      ...published.wallets.map((s) => ({ s, noEvidence: REPUTATION_NO_EVIDENCE as Record<string, number> })),
    ];
    for (const { s, noEvidence } of all) {
      const dimensions = s.dimensions as Record<string, number>;
      const weights = s.weights as Record<string, number>;
      const missing = s.missing_dimensions.map((m) => m.dimension as string);
      for (const v of Object.values(dimensions)) expect(typeof v).toBe("number");
      for (const k of missing)
        expect({ k, value: dimensions[k], weight: weights[k] }).toEqual({ k, value: noEvidence[k], weight: 0 });
      const carried = Object.entries(weights).filter(([k]) => !missing.includes(k));
      if (carried.length) expect(carried.reduce((t, [, w]) => t + w, 0)).toBeCloseTo(1, 3);
    }
    const noSmartMoney = published.tokens.filter((t) =>
      t.missing_dimensions.some((m) => m.dimension === "smart_money_flow_score"),
    );
    expect(noSmartMoney.length).toBeGreaterThan(0);
    for (const t of noSmartMoney) {
      expect(t.missing_dimensions).toContainEqual({ dimension: "smart_money_flow_score", reason: "no_smart_money" });
      expect(t.confidence).not.toBe("high");
    }
    expect(
      published.wallets.some(
        (w) => w.missing_dimensions.some((m) => m.dimension === "win_rate") && w.closed_trades > 0,
      ),
    ).toBe(true);
  });

  it("rank wallets by their behaviour: ruggers and dumping insiders low, smart money high", () => {
    const byAddress = new Map(published.wallets.map((w) => [w.address, w]));
    const scores = published.wallets.map((w) => w.reputation_score);
    const ruggers = truth.planted
      .filter((p) => p.kind === "rug_pull" || p.kind === "slow_rug")
      .map((p) => byAddress.get(p.wallets![0].toLowerCase())!);
    expect(ruggers.length).toBeGreaterThan(0);
    for (const r of ruggers) {
      expect(r.reputation_score).toBeLessThanOrEqual(REPUTATION_CAPS.pulled_own_launch_liquidity);
      expect(r.adjustments).toContainEqual({
        reason: "pulled_own_launch_liquidity",
        max_score: REPUTATION_CAPS.pulled_own_launch_liquidity,
      });
      expect(scores.filter((s) => s < r.reputation_score).length / scores.length).toBeLessThan(0.1);
    }
    const insiders = truth.planted
      .filter((p) => p.kind === "insider")
      .flatMap((p) => (p.exits as { wallet: string }[]).map((e) => byAddress.get(e.wallet.toLowerCase())!));
    expect(insiders.length).toBeGreaterThan(0);
    for (const i of insiders) expect(i.reputation_score).toBeLessThanOrEqual(30);
    const smart = Object.entries(truth.wallets)
      .filter(([, c]) => c === "smart_money")
      .map(([w]) => byAddress.get(w.toLowerCase())!);
    expect(smart.length).toBeGreaterThan(0);
    for (const s of smart)
      expect(scores.filter((x) => x > s.reputation_score).length / scores.length).toBeLessThan(0.25);
  });

  it("go with summaries that state the figures served beside them", () => {
    for (const p of published.profiles) {
      expect(p.ai_summary).toContain(`It has ${p.holder_count.toLocaleString("en-US")} holder`);
      const cap = p.market_cap_usd > 0 ? `a market cap of ${formatUsd(p.market_cap_usd)}` : "no price";
      expect(p.ai_summary).toContain(`${formatUsd(p.liquidity_usd)} of liquidity and ${cap}`);
      expect(p.ai_summary).toContain(`score of ${Math.round(p.risk_score)}`);
    }
  });

  it("value a token only while it has a price: a rugged one has no market cap, the rest have one", () => {
    const rugged = new Set(
      truth.tokens.filter((t) => t.flags.includes("liquidity_pulled")).map((t) => t.address.toLowerCase()),
    );
    expect(rugged.size).toBeGreaterThan(0);
    for (const p of published.profiles) {
      const priced = p.price_usd !== null && p.price_usd > 0;
      expect({ token: p.symbol, marketCap: p.market_cap_usd > 0 }).toEqual({ token: p.symbol, marketCap: priced });
      if (!rugged.has(p.address)) expect({ token: p.symbol, priced }).toEqual({ token: p.symbol, priced: true });
    }
  });

  it("explain each flag in words, naming the condition that raised it", () => {
    const evidence = published.tokens.flatMap((t) => t.flag_evidence);
    expect(evidence.length).toBeGreaterThan(0);
    for (const e of evidence) {
      expect(e.wallet_count).toBeGreaterThanOrEqual(e.wallets.length);
      const readable = readableMetrics(e);
      expect(readable.map((m) => m.name).sort()).toEqual(Object.keys(e.metrics).sort());
      expect(readable.filter((m) => m.tripped).length).toBeGreaterThan(0);
    }
  });
});
