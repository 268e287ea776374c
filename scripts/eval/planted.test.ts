/**
 * The scoring engine on the simulator's planted scenarios, end to end (simulation, indexer, the
 * worker's scores) for one fixed seed: each planted flag is raised with evidence that names the
 * planted actors, no token raises a planted kind of flag it should not, the hard negatives raise
 * nothing, and planted wallets get their class. Seed 2 at 3 days, 24 tokens and 150 wallets holds
 * every scenario, smart money with a record that shows it included (on some seeds the simulated
 * smart money trades too poorly to be recognised: docs/methodology.md, "Validation").
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Sql } from "@/db/client";
import type { GroundTruth, PlantedEntry } from "@/devchain/simulator/ground-truth";
import { EXPECTED_CLASSIFICATION } from "@/devchain/simulator/ground-truth";
import { PLANTED_FLAGS } from "@/devchain/stories";
import type { Classification, RiskFlag } from "@/lib/domain/vocab";
import type { Indexer } from "@/worker/indexer/indexer";
import { compareSeed } from "./metrics";
import { runSeed, type Scored } from "./run-seed";

const SEED = 2;
/**
 * V2 launches only: the seed was chosen for the scenarios its V2 market holds. Mixed with V3
 * launches (eval:scoring's default market) it still raises every flag, but one planted smart-money
 * wallet's record ends at reputation 69.5, below the class's 70; the per-protocol figures are
 * eval:scoring's and devchain/simulator-v3.test.ts's to check.
 */
const SIZE = { days: 3, tokens: 24, wallets: 150, v3Share: 0 };

/** The flags with a ground truth: the planted scenarios' and concentrated_ownership from the true owners. */
const PLANTED = [...PLANTED_FLAGS];
/**
 * Classes checked here. Retail is not: a 3-day history has retail wallets that joined in its last
 * day, and a wallet first seen less than a day ago is fresh by the method's definition.
 */
const CHECKED_CLASSES: Classification[] = ["smart_money", "sniper", "bot", "insider", "whale", "wash_trader", "fresh"];

describe(`planted scenarios of seed ${SEED}`, { timeout: 60_000 }, () => {
  let truth: GroundTruth;
  let scored: Scored;

  /** token_scores as the worker left them, and after a full refresh that found no wallet scored. */
  type ScoreRow = {
    address: string;
    risk_score: number;
    flags: string[];
    smart_money_flow_score: number | null;
    flag_evidence: unknown;
  };
  let scoredWarm: ScoreRow[];
  let scoredCold: ScoreRow[];

  beforeAll(async () => {
    const tokenScores = (sql: Sql) =>
      sql<ScoreRow[]>`select address, risk_score, flags, smart_money_flow_score, flag_evidence
          from token_scores order by address`.then((rows) => [...rows]);
    const atHead = async (sql: Sql, indexer: Indexer) => {
      scoredWarm = await tokenScores(sql);
      await sql`delete from wallet_scores`;
      await indexer.refreshAll();
      scoredCold = await tokenScores(sql);
    };
    ({ truth, scored } = await runSeed(SEED, SIZE, () => {}, { snapshots: [1], atHead }));
  }, 240_000);

  const scoreOf = (token: string) => scored.tokens.find((t) => t.address === token.toLowerCase())!;
  const evidenceOf = (token: string, flag: RiskFlag) => scoreOf(token).evidence.find((e) => e.flag === flag);
  const plantedOf = (kind: PlantedEntry["kind"]) => truth.planted.filter((p) => p.kind === kind);

  it("raises each planted flag on its token and no planted kind of flag elsewhere", () => {
    const got = truth.tokens.map((t) => ({
      token: t.symbol,
      flags: scoreOf(t.address)
        .flags.filter((f) => PLANTED.includes(f as RiskFlag))
        .sort(),
    }));
    expect(got).toEqual(truth.tokens.map((t) => ({ token: t.symbol, flags: [...t.flags].sort() })));
    for (const flag of PLANTED) expect(truth.tokens.some((t) => t.flags.includes(flag))).toBe(true);
  });

  it("scores tokens the same whether their smart-money holders were scored before them or not", () => {
    // A refresh scores tokens, then wallets; the tokens of wallets that turned smart money are scored again.
    expect(scoredCold).toEqual(scoredWarm);
    expect(scoredWarm.some((t) => t.smart_money_flow_score !== null)).toBe(true);
  });

  it("raises nothing tempting on the hard negatives (LP migration, market maker, airdrop)", () => {
    const result = compareSeed(truth, scored);
    expect(result.hardNegatives).toBeGreaterThanOrEqual(3);
    expect(result.hardNegativeHits).toEqual([]);
  });

  it("names the planted actors in the evidence", () => {
    for (const pull of [...plantedOf("rug_pull"), ...plantedOf("slow_rug")]) {
      expect(evidenceOf(pull.token!, "liquidity_pulled")?.wallets).toContain(pull.wallets![0]);
    }
    for (const bundle of plantedOf("sybil_launch"))
      expect(evidenceOf(bundle.token!, "sybil_cluster")?.funder).toBe(bundle.funder);
    for (const ring of plantedOf("wash_ring")) {
      const evidence = evidenceOf(ring.token!, "wash_trading");
      expect(evidence?.wallets.length).toBeGreaterThan(0);
      expect(ring.wallets).toEqual(expect.arrayContaining(evidence!.wallets));
    }
    const exited = plantedOf("smart_money").filter((p) =>
      truth.tokens.find((t) => t.address === p.token)!.flags.includes("smart_money_exiting"),
    );
    for (const entry of exited)
      expect(entry.wallets).toEqual(expect.arrayContaining(evidenceOf(entry.token!, "smart_money_exiting")!.wallets));
  });

  it("gives planted wallets their class, and infrastructure none of wash trader, sniper, insider", () => {
    const expected = Object.entries(truth.wallets).flatMap(([wallet, planted]) => {
      const cls = EXPECTED_CLASSIFICATION[planted];
      return cls && CHECKED_CLASSES.includes(cls) ? [{ wallet, planted, cls }] : [];
    });
    for (const cls of CHECKED_CLASSES) expect(expected.some((e) => e.cls === cls)).toBe(true);
    const wrong = expected
      .filter((e) => scored.wallets.get(e.wallet) !== e.cls)
      .map((e) => ({ ...e, got: scored.wallets.get(e.wallet) }));
    expect(wrong).toEqual([]);
    expect(compareSeed(truth, scored).roleWalletHits).toEqual([]);
  });
});
