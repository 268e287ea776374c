import { printTable } from "@/bench/lib/table";
import { PLANTED_FLAGS } from "@/devchain/stories";
import type { RiskFlag } from "@/lib/domain/vocab";
import { RISK_LEVELS } from "@/lib/scoring";
import { type Counts, combine, type Rates, rates, type SeedResult } from "./metrics";
import { SNAPSHOTS } from "./run-seed";

/** Issue 4's flag targets, issue 15's calibration and reputation targets. */
const TARGET = {
  precision: 0.9,
  recall: 0.8,
  liquidityPulledPrecision: 0.97,
  /** No risk level holds more than this share of the readings. */
  maxBandShare: 0.5,
  /** A rugger scores below all but this share of the seed's wallets (the bottom decile). */
  ruggerLowerShare: 0.1,
  /** Smart money scores above all but this share of them (the top quartile). */
  smartMoneyHigherShare: 0.25,
} as const;

const fmt = (v: number | null) => (v === null ? "n/a" : v.toFixed(2));

function flagTarget(flag: string, r: Rates): string {
  const minPrecision = flag === "liquidity_pulled" ? TARGET.liquidityPulledPrecision : TARGET.precision;
  if (!PLANTED_FLAGS.has(flag as RiskFlag)) return `not planted (raised on ${r.tp + r.fp} tokens)`;
  if (r.tp + r.fn === 0) return "no planted case";
  return (r.precision ?? 0) >= minPrecision && (r.recall ?? 0) >= TARGET.recall ? "met" : "MISSED";
}

/** Per risk level: readings, rugged readings, the rug share and the level's share of all readings. */
function bandTable(bands: SeedResult["bands"]) {
  const readings = RISK_LEVELS.reduce((n, l) => n + bands[l].tokens, 0);
  return Object.fromEntries(
    RISK_LEVELS.map((l) => [
      l,
      {
        ...bands[l],
        rug_share: bands[l].tokens ? bands[l].rugged / bands[l].tokens : null,
        band_share: readings ? bands[l].tokens / readings : null,
      },
    ]),
  );
}

/** Whether the rug share rises strictly from each band to the next (bands without readings skipped). */
function rugShareRises(bands: SeedResult["bands"]): boolean {
  const shares = RISK_LEVELS.filter((l) => bands[l].tokens > 0).map((l) => bands[l].rugged / bands[l].tokens);
  return shares.length > 1 && shares.every((s, i) => i === 0 || s > shares[i - 1]);
}

/** One seed's calibration and reputation checks. */
function seedChecks(seed: number, r: SeedResult) {
  const bands = bandTable(r.bands);
  const largestBandShare = Math.max(...Object.values(bands).map((b) => b.band_share ?? 0));
  const { ruggers, smartMoney, dumpingInsiders } = r.reputation;
  const ruggersLow = ruggers.filter((w) => w.lowerShare < TARGET.ruggerLowerShare).length;
  const smartHigh = smartMoney.filter((w) => w.higherShare < TARGET.smartMoneyHigherShare).length;
  const checks = {
    rug_share_rises: rugShareRises(r.bands),
    largest_band_share_ok: largestBandShare <= TARGET.maxBandShare,
    ruggers_in_bottom_decile: ruggersLow === ruggers.length,
    smart_money_in_top_quartile: smartHigh === smartMoney.length,
  };
  return {
    seed,
    rug_share: Object.fromEntries(RISK_LEVELS.map((l) => [l, bands[l].rug_share])),
    band_share: Object.fromEntries(RISK_LEVELS.map((l) => [l, bands[l].band_share])),
    largest_band_share: largestBandShare,
    ruggers: {
      in_bottom_decile: ruggersLow,
      of: ruggers.length,
      highest_score: Math.max(0, ...ruggers.map((w) => w.score)),
    },
    smart_money: {
      in_top_quartile: smartHigh,
      of: smartMoney.length,
      lowest_score: Math.min(100, ...smartMoney.map((w) => w.score)),
    },
    dumping_insiders: {
      of: dumpingInsiders.length,
      highest_score: Math.max(0, ...dumpingInsiders.map((w) => w.score)),
    },
    checks,
    met: Object.values(checks).every(Boolean),
  };
}

/** The figures as one JSON-ready object: the seeds pooled, and each seed's own checks. */
export function summarize(results: SeedResult[], seeds: number[]) {
  const pooled = combine(results);
  const withTargets = (counts: Record<string, Counts>) =>
    Object.fromEntries(Object.entries(counts).map(([f, c]) => [f, { ...rates(c), target: flagTarget(f, rates(c)) }]));
  const flags = withTargets(pooled.flags);
  const flagsByProtocol = Object.fromEntries(
    Object.entries(pooled.flagsByProtocol).map(([p, counts]) => [p, withTargets(counts)]),
  );
  const allMet = (byFlag: typeof flags) => Object.values(byFlag).every((f) => f.target !== "MISSED");
  const classes = Object.fromEntries(Object.entries(pooled.classes).map(([k, c]) => [k, rates(c)]));
  const perSeed = results.map((r, i) => seedChecks(seeds[i], r));
  return {
    seeds,
    flags,
    flags_by_protocol: flagsByProtocol,
    classes,
    rug_share_by_band: bandTable(pooled.bands),
    rug_share_rises: rugShareRises(pooled.bands),
    per_seed: perSeed,
    hard_negatives: { tokens: pooled.hardNegatives, raised: pooled.hardNegativeHits },
    role_wallets_misclassified: pooled.roleWalletHits,
    targets_met:
      allMet(flags) &&
      Object.values(flagsByProtocol).every(allMet) &&
      perSeed.every((s) => s.met) &&
      pooled.hardNegativeHits.length === 0,
  };
}

const yes = (ok: boolean) => (ok ? "yes" : "NO");

function flagTable(flags: ReturnType<typeof summarize>["flags"]) {
  printTable(
    Object.entries(flags).map(([flag, r]) => ({
      flag,
      tp: r.tp,
      fp: r.fp,
      fn: r.fn,
      precision: fmt(r.precision),
      recall: fmt(r.recall),
      f1: fmt(r.f1),
      target: r.target,
    })),
  );
}

export function printReport(s: ReturnType<typeof summarize>) {
  console.log(`\nFlags (seeds ${s.seeds.join(", ")})`);
  flagTable(s.flags);
  for (const [protocol, flags] of Object.entries(s.flags_by_protocol)) {
    console.log(`\nFlags of the tokens launched on ${protocol} (same targets)`);
    flagTable(flags);
  }
  console.log("\nWallet classes (planted wallets with an expected class)");
  printTable(
    Object.entries(s.classes).map(([cls, r]) => ({
      class: cls,
      tp: r.tp,
      fp: r.fp,
      fn: r.fn,
      precision: fmt(r.precision),
      recall: fmt(r.recall),
      f1: fmt(r.f1),
    })),
  );
  console.log(
    `\nRugged tokens by risk_level (every launched token read at ${SNAPSHOTS.length} moments through the history, ` +
      `every ${SNAPSHOTS[0] * 100}%; rugged = pulled by the end)`,
  );
  printTable(
    Object.entries(s.rug_share_by_band).map(([band, b]) => ({
      band,
      readings: b.tokens,
      "share of readings": fmt(b.band_share),
      rugged: b.rugged,
      "rug share": fmt(b.rug_share),
    })),
  );
  console.log(`rug share rises with each band, seeds pooled: ${yes(s.rug_share_rises)}`);
  console.log(
    `\nPer seed: rug share by band must rise strictly, ` +
      `no band may hold more than ${TARGET.maxBandShare * 100}% of the readings, ` +
      `planted ruggers must score below all but ${TARGET.ruggerLowerShare * 100}% of the wallets (bottom decile), ` +
      `planted smart money above all but ${TARGET.smartMoneyHigherShare * 100}% (top quartile)`,
  );
  printTable(
    s.per_seed.map((p) => ({
      seed: p.seed,
      "rug share low/med/high/crit": RISK_LEVELS.map((l) => fmt(p.rug_share[l])).join(" / "),
      rises: yes(p.checks.rug_share_rises),
      "band shares": RISK_LEVELS.map((l) => fmt(p.band_share[l])).join(" / "),
      "largest ≤ 0.5": yes(p.checks.largest_band_share_ok),
      "ruggers bottom 10%": `${p.ruggers.in_bottom_decile}/${p.ruggers.of} (max ${p.ruggers.highest_score})`,
      "smart money top 25%": `${p.smart_money.in_top_quartile}/${p.smart_money.of} (min ${p.smart_money.lowest_score})`,
      "dumping insiders": `${p.dumping_insiders.of} (max ${p.dumping_insiders.highest_score})`,
    })),
  );
  const hits = s.hard_negatives.raised;
  console.log(
    `hard negatives: ${s.hard_negatives.tokens} tokens, ` +
      (hits.length ? `RAISED ${hits.map((h) => `${h.token}:${h.flag}`).join(", ")}` : "none raised its tempting flag"),
  );
  const roles = s.role_wallets_misclassified;
  console.log(
    "role wallets (market maker, funder, CEX, ...) called wash trader/sniper/insider: " +
      (roles.length ? roles.map((r) => `${r.planted}→${r.class}`).join(", ") : "none"),
  );
  console.log(`all targets met: ${yes(s.targets_met)}`);
}
