import { describe, expect, it } from "vitest";
import { summaryInput } from "./__fixtures__/summary";
import { healthyToken } from "./__fixtures__/token";
import { formatPct, formatShare, formatUsd } from "./format";
import { checkAnswer, numbersInText } from "./llm";
import { scoreTokenRisk } from "./risk";
import {
  deterministicSummary,
  type SummaryInput,
  summaryFactsHash,
  summaryInputFrom,
  summaryInputHash,
} from "./summary";

const calm = (): SummaryInput => ({
  ...summaryInput(),
  sector: "other",
  riskScore: 12.2,
  riskLevel: "low",
  holderGrowth1hPct: 0,
  volume24hUsd: 0,
  dimensions: {
    holder_concentration_score: 8,
    liquidity_stability_score: 30.4,
    wash_trade_score: 0,
    smart_money_flow_score: 20,
  },
  flagEvidence: [],
});

describe("deterministic summary", () => {
  it("says what the token is, how it trades and why it is risky, from the input's numbers", () => {
    expect(deterministicSummary(summaryInput())).toBe(
      "Froggy Agent (FRAG) is an AI token launched on MemePad on 2026-11-03. " +
        "It has 1,342 holders (+13% in the last hour), $123k of liquidity and a market cap of $1.23M, " +
        "with $45.7k traded in the last day. " +
        "Its risk is high with a score of 68; flags raised: " +
        "wash trading (41% of recent volume came from matched buy-and-sell round trips by 2 traders); " +
        "concentrated ownership (the largest owner holds 18% of supply, the ten largest 62%).",
    );
  });

  it("mentions only numbers that are in the input", () => {
    const input = summaryInput();
    const text = deterministicSummary(input);
    // date parts, holders, growth, liquidity, market cap, volume, score, wash share and entities, top1, top10
    expect(numbersInText(text)).toEqual([2026, 11, 3, 1342, 13, 123_000, 1.23e6, 45_700, 68, 41, 2, 18, 62]);
    for (const x of [input, calm()]) expect(checkAnswer(deterministicSummary(x), x).problem).toBeNull();
  });

  it("names the riskiest dimension when no flag is raised", () => {
    expect(deterministicSummary(calm())).toBe(
      "Froggy Agent (FRAG) is a token launched on MemePad on 2026-11-03. " +
        "It has 1,342 holders, $123k of liquidity and a market cap of $1.23M, with no trades in the last day. " +
        "Its risk is low with a score of 12 and no risk flag; its riskiest dimension is liquidity instability at 30.",
    );
  });

  it("names the floor that raised the score, and skips dimensions without data", () => {
    const raised: SummaryInput = {
      ...calm(),
      riskScore: 50,
      riskLevel: "high",
      weightedScore: 28.4,
      dimensions: {
        holder_concentration_score: 55,
        liquidity_stability_score: 10,
        wash_trade_score: null,
        smart_money_flow_score: null,
      },
      adjustments: [{ reason: "severe_holder_concentration", min_score: 50 }],
    };
    expect(deterministicSummary(raised)).toContain(
      "Its risk is high with a score of 50 (its breakdown weighs 28, " +
        "raised because holder concentration is 50 or more: a few owners can dump the supply) " +
        "and no risk flag; its riskiest dimension is holder concentration at 55.",
    );
    expect(checkAnswer(deterministicSummary(raised), raised).problem).toBeNull();
  });

  it("says a token without a price has none, rather than a market cap of $0", () => {
    const unpriced = { ...calm(), marketCapUsd: 0, liquidityUsd: 220 };
    expect(deterministicSummary(unpriced)).toContain(
      "It has 1,342 holders, $220 of liquidity and no price, as no pool holds enough liquidity,",
    );
    expect(checkAnswer(deterministicSummary(unpriced), unpriced).problem).toBeNull();
  });

  it("names no floor the breakdown already meets: it raised nothing", () => {
    const met: SummaryInput = {
      ...calm(),
      riskScore: 51.3,
      riskLevel: "high",
      weightedScore: 51.3,
      dimensions: {
        holder_concentration_score: 55,
        liquidity_stability_score: 50,
        wash_trade_score: null,
        smart_money_flow_score: null,
      },
      adjustments: [{ reason: "severe_holder_concentration", min_score: 50 }],
    };
    const text = deterministicSummary(met);
    expect(text).toContain("Its risk is high with a score of 51 and no risk flag;");
    expect(text).not.toMatch(/raised|weighs/);
    // Of two floors only the one that set the score is named.
    const both: SummaryInput = {
      ...met,
      riskScore: 60,
      weightedScore: 28.4,
      adjustments: [...met.adjustments, { reason: "new_token", min_score: 60 }],
    };
    expect(deterministicSummary(both)).toContain("(its breakdown weighs 28, raised because launched less than");
    expect(deterministicSummary(both)).not.toContain("holder concentration is 50 or more");
  });

  it("says which condition raised concentrated ownership", () => {
    const [, concentrated] = summaryInput().flagEvidence;
    const top10 = { ...concentrated, metrics: { ...concentrated.metrics, top1_share: 0.09 }, tripped: ["top10_share"] };
    expect(deterministicSummary({ ...summaryInput(), flagEvidence: [top10] })).toContain(
      "concentrated ownership (the ten largest owners hold 62% of supply, the largest 9%)",
    );
  });

  it("describes each flag by the metric that crossed its threshold", () => {
    const noActors = { wallets: [], tx_hashes: [], wallet_count: 0, tx_count: 0, funder: null };
    const input: SummaryInput = {
      ...summaryInput(),
      flagEvidence: [
        {
          ...noActors,
          flag: "liquidity_pulled",
          metrics: { provider_removed_share: 0.96, drawdown: 0.97 },
          thresholds: { provider_removed_share: 0.7, fast_drawdown: 0.9 },
          tripped: ["provider_removed_share"],
        },
        {
          ...noActors,
          flag: "sybil_cluster",
          metrics: { wallets: 6, supply_share: 0.21 },
          thresholds: {},
          tripped: [],
        },
        {
          ...noActors,
          flag: "smart_money_exiting",
          metrics: { exiting_wallets: 3, smart_money_wallets: 5, net_flow_usd: -12_400 },
          thresholds: {},
          tripped: [],
        },
      ],
    };
    const text = deterministicSummary(input);
    expect(text).toContain("liquidity pulled (one provider removed 96% of the pool)");
    expect(text).toContain("sybil cluster (6 wallets of one funder bought together, accounting for 21% of supply)");
    expect(text).toContain(
      "smart money exiting (3 of 5 smart-money wallets sold at least half their position recently, " +
        "a net outflow of $12.4k)",
    );
    const sellRug = {
      ...input.flagEvidence[0],
      metrics: { fast_drawdown: 0.95, drawdown: 0.95, provider_sell_share: 0.8, provider_removed_share: 0.1 },
    };
    expect(deterministicSummary({ ...input, flagEvidence: [sellRug] })).toContain(
      "liquidity fell 95% within a day as its own provider sold into the pool",
    );
  });

  it("is built from a token, its metrics and its risk result", () => {
    const { name, symbol, sector, launchpad, createdAt } = summaryInput();
    const market = {
      marketCapUsd: 400_000,
      volume24hUsd: 20_000,
      liquidityUsd: 80_000,
      holderCount: 300,
      holderGrowth1hPct: 2,
    };
    const input = summaryInputFrom(
      { name, symbol, sector, launchpad, createdAt },
      market,
      scoreTokenRisk(healthyToken()),
    );
    expect(input.riskLevel).toBe("low");
    expect(checkAnswer(deterministicSummary(input), input).problem).toBeNull();
  });

  it("formats numbers compactly", () => {
    expect([formatUsd(950.4), formatUsd(0.4213), formatUsd(12_345), formatUsd(2.5e9)]).toEqual([
      "$950",
      "$0.421",
      "$12.3k",
      "$2.5B",
    ]);
    expect([formatPct(4.56), formatPct(45.6), formatShare(0.05)]).toEqual(["4.6%", "46%", "5%"]);
  });
});

describe("summaryInputHash", () => {
  const base = summaryInputHash(summaryInput());

  it("is stable for the same data and for small moves", () => {
    expect(summaryInputHash(summaryInput())).toBe(base);
    const small = {
      ...summaryInput(),
      volume24hUsd: 45_678 * 1.05,
      holderCount: 1_360,
      riskScore: 69,
      liquidityUsd: 125_000,
    };
    expect(summaryInputHash(small)).toBe(base);
    const reordered = { ...summaryInput(), flagEvidence: [...summaryInput().flagEvidence].reverse() };
    expect(summaryInputHash(reordered)).toBe(base);
    const otherWallets = summaryInput();
    otherWallets.flagEvidence[0].wallets = ["0x00000000000000000000000000000000000000ff"];
    expect(summaryInputHash(otherWallets)).toBe(base);
  });

  it("changes when the data changes materially", () => {
    const changes: Partial<SummaryInput>[] = [
      { volume24hUsd: 45_678 * 2 },
      { holderCount: 2_000 },
      { riskScore: 72, riskLevel: "high" },
      { riskLevel: "critical" },
      { holderGrowth1hPct: 30 },
      { name: "Froggy Agent 2" },
      { flagEvidence: summaryInput().flagEvidence.slice(1) },
    ];
    for (const change of changes) expect(summaryInputHash({ ...summaryInput(), ...change })).not.toBe(base);
    const metricMoved = summaryInput();
    metricMoved.flagEvidence[0].metrics.wash_share = 0.6;
    expect(summaryInputHash(metricMoved)).not.toBe(base);
  });
});

describe("summaryFactsHash", () => {
  it("changes with any figure a summary may state, however small the move", () => {
    const base = summaryInput();
    expect(summaryFactsHash(summaryInput())).toBe(summaryFactsHash(base));
    const oneMoreHolder = { ...base, holderCount: base.holderCount + 1 };
    expect(summaryInputHash(oneMoreHolder)).toBe(summaryInputHash(base));
    expect(summaryFactsHash(oneMoreHolder)).not.toBe(summaryFactsHash(base));
  });
});
