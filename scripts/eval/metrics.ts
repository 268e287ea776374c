import { EXPECTED_CLASSIFICATION, type GroundTruth } from "@/devchain/simulator/ground-truth";
import type { Classification } from "@/lib/domain/vocab";
import { CLASSIFICATIONS, RISK_FLAGS, RISK_LEVELS } from "@/lib/scoring";
import type { Scored } from "./run-seed";

export type Counts = { tp: number; fp: number; fn: number };
export type Rates = Counts & { precision: number | null; recall: number | null; f1: number | null };

export type SeedResult = {
  flags: Record<string, Counts>;
  /** The same counts for the tokens of each protocol (uniswap-v2, uniswap-v3) that launched any. */
  flagsByProtocol: Record<string, Record<string, Counts>>;
  classes: Record<string, Counts>;
  /** Per risk level: token readings in it (every launched token at every snapshot) and how many were of a
   * token rugged (planted liquidity_pulled) by the end of the history. */
  bands: Record<string, { tokens: number; rugged: number }>;
  /** Hard negatives that raised the flag their label makes tempting. */
  hardNegativeHits: { token: string; flag: string }[];
  hardNegatives: number;
  /** Wallets of a planted role with no expected class that were still called wash trader, sniper or insider. */
  roleWalletHits: { wallet: string; planted: string; class: string }[];
  reputation: ReputationRanks;
};

/**
 * Planted wallets' reputations against every scored wallet of their seed: creators that pulled
 * their launch's liquidity with the share of wallets scoring lower, smart money with the share
 * scoring higher, and insiders that sold before their creator's dump.
 */
export type ReputationRanks = {
  ruggers: { wallet: string; score: number; lowerShare: number }[];
  smartMoney: { wallet: string; score: number; higherShare: number }[];
  dumpingInsiders: { wallet: string; score: number }[];
};

/** Classes a wallet with no expected class (market maker, funder, CEX...) must not be given. */
const WRONG_FOR_ROLES = new Set<string>(["wash_trader", "sniper", "insider"]);

const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0 });

function tally(counts: Counts, predicted: boolean, actual: boolean) {
  if (predicted && actual) counts.tp++;
  else if (predicted) counts.fp++;
  else if (actual) counts.fn++;
}

/** Every planted token and wallet against what the engine stored for it. */
export function compareSeed(truth: GroundTruth, scored: Scored): SeedResult {
  const byToken = new Map(scored.tokens.map((t) => [t.address.toLowerCase(), t]));
  const flags = Object.fromEntries(RISK_FLAGS.map((f) => [f, zero()]));
  const flagsByProtocol: SeedResult["flagsByProtocol"] = {};
  const bands = Object.fromEntries(RISK_LEVELS.map((l) => [l, { tokens: 0, rugged: 0 }]));
  const hardNegativeHits: SeedResult["hardNegativeHits"] = [];
  for (const t of truth.tokens) {
    const s = byToken.get(t.address.toLowerCase());
    const raised = new Set(s?.flags ?? []);
    // Ground truth written before protocols were recorded is all Uniswap V2.
    const protocol = t.protocol ?? "uniswap-v2";
    flagsByProtocol[protocol] ??= Object.fromEntries(RISK_FLAGS.map((f) => [f, zero()]));
    for (const f of RISK_FLAGS) {
      tally(flags[f], raised.has(f), t.flags.includes(f));
      tally(flagsByProtocol[protocol][f], raised.has(f), t.flags.includes(f));
    }
    for (const f of t.notFlags) if (raised.has(f)) hardNegativeHits.push({ token: t.symbol, flag: f });
  }
  const rugged = new Set(
    truth.tokens.filter((t) => t.flags.includes("liquidity_pulled")).map((t) => t.address.toLowerCase()),
  );
  // The simulator's launches, as for the flags: the dev chain's own fixture tokens have no ground truth.
  const launched = new Set(truth.tokens.map((t) => t.address.toLowerCase()));
  for (const reading of scored.levelsOverTime.flat()) {
    if (!launched.has(reading.address.toLowerCase())) continue;
    bands[reading.riskLevel].tokens++;
    if (rugged.has(reading.address.toLowerCase())) bands[reading.riskLevel].rugged++;
  }

  const classes = Object.fromEntries(CLASSIFICATIONS.map((c) => [c, zero()]));
  const roleWalletHits: SeedResult["roleWalletHits"] = [];
  for (const [address, planted] of Object.entries(truth.wallets)) {
    const got = scored.wallets.get(address.toLowerCase()) ?? null;
    const expected: Classification | null = EXPECTED_CLASSIFICATION[planted];
    if (expected === null) {
      if (got && WRONG_FOR_ROLES.has(got)) roleWalletHits.push({ wallet: address, planted, class: got });
      continue;
    }
    for (const c of CLASSIFICATIONS) tally(classes[c], got === c, expected === c);
  }
  return {
    flags,
    flagsByProtocol,
    classes,
    bands,
    hardNegativeHits,
    hardNegatives: truth.tokens.filter((t) => t.notFlags.length > 0).length,
    roleWalletHits,
    reputation: reputationRanks(truth, scored),
  };
}

function reputationRanks(truth: GroundTruth, scored: Scored): ReputationRanks {
  const all = [...scored.reputations.values()];
  const scoreOf = (w: string) => scored.reputations.get(w.toLowerCase());
  const share = (test: (v: number) => boolean) => all.filter(test).length / all.length;
  const ruggers = [
    ...new Set(
      truth.planted
        .filter((p) => p.kind === "rug_pull" || p.kind === "slow_rug")
        .map((p) => p.wallets![0].toLowerCase()),
    ),
  ];
  const smartMoney = Object.entries(truth.wallets)
    .filter(([, planted]) => planted === "smart_money")
    .map(([w]) => w.toLowerCase());
  const exits = truth.planted
    .filter((p) => p.kind === "insider")
    .flatMap((p) => (p.exits as { wallet: string }[]).map((e) => e.wallet.toLowerCase()));
  const scoredOnly = (wallets: string[]) =>
    wallets.flatMap((wallet) => (scoreOf(wallet) === undefined ? [] : [{ wallet, score: scoreOf(wallet)! }]));
  return {
    ruggers: scoredOnly(ruggers).map((r) => ({ ...r, lowerShare: share((v) => v < r.score) })),
    smartMoney: scoredOnly(smartMoney).map((r) => ({ ...r, higherShare: share((v) => v > r.score) })),
    dumpingInsiders: scoredOnly([...new Set(exits)]),
  };
}

const ratio = (a: number, b: number) => (b === 0 ? null : a / b);

export function rates(c: Counts): Rates {
  const precision = ratio(c.tp, c.tp + c.fp);
  const recall = ratio(c.tp, c.tp + c.fn);
  const f1 =
    precision === null || recall === null || precision + recall === 0
      ? null
      : (2 * precision * recall) / (precision + recall);
  return { ...c, precision, recall, f1 };
}

const addCounts = (a: Counts, b: Counts): Counts => ({ tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn });

/** Seeds pooled: counts add up, so the rates are over every planted case. */
export function combine(results: SeedResult[]): SeedResult {
  const mergeCounts = (pick: (r: SeedResult) => Record<string, Counts>) =>
    Object.fromEntries(
      Object.keys(pick(results[0])).map((k) => [
        k,
        results
          .map(pick)
          .map((m) => m[k])
          .reduce(addCounts, zero()),
      ]),
    );
  const protocols = [...new Set(results.flatMap((r) => Object.keys(r.flagsByProtocol)))].sort();
  const pooledFlags = (protocol: string) =>
    Object.fromEntries(
      RISK_FLAGS.map((f) => [
        f,
        results.map((r) => r.flagsByProtocol[protocol]?.[f] ?? zero()).reduce(addCounts, zero()),
      ]),
    );
  return {
    flags: mergeCounts((r) => r.flags),
    flagsByProtocol: Object.fromEntries(protocols.map((p) => [p, pooledFlags(p)])),
    classes: mergeCounts((r) => r.classes),
    bands: Object.fromEntries(
      RISK_LEVELS.map((l) => [
        l,
        results.reduce(
          (acc, r) => ({ tokens: acc.tokens + r.bands[l].tokens, rugged: acc.rugged + r.bands[l].rugged }),
          { tokens: 0, rugged: 0 },
        ),
      ]),
    ),
    hardNegativeHits: results.flatMap((r) => r.hardNegativeHits),
    hardNegatives: results.reduce((n, r) => n + r.hardNegatives, 0),
    roleWalletHits: results.flatMap((r) => r.roleWalletHits),
    reputation: {
      ruggers: results.flatMap((r) => r.reputation.ruggers),
      smartMoney: results.flatMap((r) => r.reputation.smartMoney),
      dumpingInsiders: results.flatMap((r) => r.reputation.dumpingInsiders),
    },
  };
}
