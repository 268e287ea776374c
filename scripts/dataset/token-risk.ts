import type { FlagEvidence } from "@/db/schema/scores";

/**
 * Provisional token risk (method "dataset-1", after shared/research/scoring.md): four dimensions,
 * their weighted composite, and the five flags with the wallets and transactions behind them.
 * The flags are detected from the simulated facts, never copied from the planted scenario.
 */

export const RISK_FLAGS = ["wash_trading", "liquidity_pulled", "concentrated_ownership", "sybil_cluster", "smart_money_exiting"] as const;
export type RiskFlag = (typeof RISK_FLAGS)[number];

const ramp = (x: number, a: number, b: number) => Math.min(1, Math.max(0, (x - a) / (b - a)));
const share = (part: bigint, whole: bigint) => (whole === 0n ? 0 : Number((part * 1_000_000n) / whole) / 1e6);

const T = {
  washShare: 0.25,
  washRoundTrips: 3,
  removalShare: 0.7,
  top10: 0.5,
  top1: 0.15,
  sybilWallets: 5,
  sybilSupply: 0.1,
  smExiters: 2,
  smExitShare: 0.3,
} as const;
const WEIGHTS = { holder: 0.3, liquidity: 0.3, wash: 0.2, smartMoney: 0.2 } as const;
/**
 * A raised flag lifts the score into [floor, 100], placed there by the composite, so flagged
 * tokens still rank among themselves (a rugged token is always critical).
 */
const FLOORS: Record<RiskFlag, number> = {
  liquidity_pulled: 85,
  sybil_cluster: 50,
  wash_trading: 50,
  concentrated_ownership: 35,
  smart_money_exiting: 35,
};
/** Evidence names at most this many wallets and transactions per flag. */
const EVIDENCE_MAX = 10;

export type Holder = { wallet: string; cluster: number; funder: string; amount: bigint; tx: string | null };

export type TokenFacts = {
  supply: bigint;
  /** Wallet holders with a positive balance, largest first; tx = how they got in. */
  holders: Holder[];
  /** Wallets that bought in the launch window, with their current balance. */
  launchBuyers: Holder[];
  largestRemoval: { share: number; wallet: string; tx: string } | null;
  peakWethReserve: number;
  wethReserve: number;
  unlockedLpShare: number;
  liquidityUsd: number;
  marketCapUsd: number;
  volumeUsd: number;
  /** Per wallet or funding cluster: matched buy/sell round trips and their volume. */
  washEntities: { wallets: string[]; funder: string | null; roundTrips: number; volumeUsd: number; txs: string[] }[];
  topClusterVolumeUsd: number;
  /** Smart-money wallets that traded the token; exited = sold >= half their peak in the last 24 h. */
  smartMoney: { wallet: string; exited: boolean; txs: string[] }[];
  smBought24hUsd: number;
  smSold24hUsd: number;
};

export type TokenRisk = {
  holderConcentration: number;
  liquidityStability: number;
  washTrade: number;
  smartMoneyFlow: number;
  riskScore: number;
  riskLevel: "low" | "medium" | "high" | "critical";
  flags: RiskFlag[];
  evidence: FlagEvidence[];
  top10Share: number;
  top1Share: number;
  washShare: number;
};

export const riskLevel = (score: number): TokenRisk["riskLevel"] => (score < 25 ? "low" : score < 50 ? "medium" : score < 75 ? "high" : "critical");

/** Holdings merged per funding cluster: a sybil farm is one owner. */
function owners(holders: Holder[], supply: bigint) {
  const byOwner = new Map<string, { amount: bigint; members: Holder[] }>();
  for (const h of holders) {
    const key = h.cluster >= 0 ? `c${h.cluster}` : h.wallet;
    const o = byOwner.get(key) ?? { amount: 0n, members: [] };
    o.amount += h.amount;
    o.members.push(h);
    byOwner.set(key, o);
  }
  return [...byOwner.values()].map((o) => ({ ...o, share: share(o.amount, supply) })).sort((a, b) => b.share - a.share);
}

const evidence = (
  flag: RiskFlag,
  wallets: string[],
  txs: (string | null)[],
  funder: string | null,
  metrics: Record<string, number>,
  thresholds: Record<string, number>,
): FlagEvidence => ({
  flag,
  wallets: [...new Set(wallets)].slice(0, EVIDENCE_MAX),
  tx_hashes: [...new Set(txs.filter((t): t is string => t !== null))].slice(0, EVIDENCE_MAX),
  wallet_count: new Set(wallets).size,
  tx_count: new Set(txs.filter((t) => t !== null)).size,
  funder,
  metrics,
  thresholds,
  tripped: Object.keys(thresholds).filter((k) => metrics[k] !== undefined && metrics[k] >= thresholds[k]),
});

export function assessToken(f: TokenFacts): TokenRisk {
  const found: FlagEvidence[] = [];
  const round = (x: number) => Math.round(x * 1e4) / 1e4;

  const ranked = owners(f.holders, f.supply);
  const top10Share = ranked.slice(0, 10).reduce((s, o) => s + o.share, 0);
  const top1Share = ranked[0]?.share ?? 0;
  const hhi = ranked.reduce((s, o) => s + o.share * o.share, 0);
  if (top10Share >= T.top10 || top1Share >= T.top1) {
    const top = ranked.slice(0, 10).flatMap((o) => o.members);
    found.push(
      evidence(
        "concentrated_ownership",
        top.map((h) => h.wallet),
        top.map((h) => h.tx),
        null,
        { top10_share: round(top10Share), top1_share: round(top1Share), hhi: round(hhi) },
        { top10_share: T.top10, top1_share: T.top1 },
      ),
    );
  }

  const farms = new Map<number, Holder[]>();
  for (const b of f.launchBuyers) if (b.cluster >= 0) farms.set(b.cluster, [...(farms.get(b.cluster) ?? []), b]);
  for (const farm of farms.values()) {
    const held = share(
      farm.reduce((s, b) => s + b.amount, 0n),
      f.supply,
    );
    if (farm.length >= T.sybilWallets && held >= T.sybilSupply) {
      found.push(
        evidence(
          "sybil_cluster",
          farm.map((b) => b.wallet),
          farm.map((b) => b.tx),
          farm[0].funder,
          { wallets: farm.length, supply_share: round(held) },
          { wallets: T.sybilWallets, supply_share: T.sybilSupply },
        ),
      );
      break;
    }
  }

  const removal = f.largestRemoval;
  if (removal && removal.share >= T.removalShare) {
    found.push(evidence("liquidity_pulled", [removal.wallet], [removal.tx], null, { removed_share: round(removal.share) }, { removed_share: T.removalShare }));
  }

  const washUsd = f.washEntities.reduce((s, e) => s + e.volumeUsd, 0);
  const washShare = f.volumeUsd > 0 ? washUsd / f.volumeUsd : 0;
  const ring = [...f.washEntities].sort((a, b) => b.roundTrips - a.roundTrips)[0];
  if (washShare >= T.washShare && ring && ring.roundTrips >= T.washRoundTrips) {
    found.push(
      evidence(
        "wash_trading",
        ring.wallets,
        ring.txs,
        ring.funder,
        { wash_share: round(washShare), round_trips: ring.roundTrips },
        { wash_share: T.washShare, round_trips: T.washRoundTrips },
      ),
    );
  }

  const exiters = f.smartMoney.filter((s) => s.exited);
  const netFlow = f.smSold24hUsd - f.smBought24hUsd;
  const exitShare = f.smartMoney.length ? exiters.length / f.smartMoney.length : 0;
  if ((exiters.length >= T.smExiters || (exiters.length > 0 && exitShare >= T.smExitShare)) && netFlow > 0) {
    found.push(
      evidence(
        "smart_money_exiting",
        exiters.map((s) => s.wallet),
        exiters.flatMap((s) => s.txs),
        null,
        { exiting_wallets: exiters.length, exit_share: round(exitShare), net_outflow_usd: Math.round(netFlow) },
        { exiting_wallets: T.smExiters, exit_share: T.smExitShare },
      ),
    );
  }

  const holderConcentration = 100 * (0.5 * ramp(top10Share, 0.2, 0.8) + 0.3 * ramp(hhi, 0.02, 0.25) + 0.2 * ramp(top1Share, 0.05, 0.5));
  const drawdown = f.peakWethReserve > 0 ? 1 - f.wethReserve / f.peakWethReserve : 0;
  const liqToCap = f.marketCapUsd > 0 ? f.liquidityUsd / f.marketCapUsd : 0;
  const liquidityStability =
    100 * (0.45 * ramp(drawdown, 0.2, 0.9) + 0.25 * ramp(removal?.share ?? 0, 0.3, 0.9) + 0.2 * f.unlockedLpShare + 0.1 * (1 - ramp(liqToCap, 0.02, 0.1)));
  const washTrade = 100 * (0.8 * ramp(washShare, 0.05, 0.5) + 0.2 * ramp(f.volumeUsd > 0 ? f.topClusterVolumeUsd / f.volumeUsd : 0, 0.3, 0.8));
  const smFlow = f.smBought24hUsd + f.smSold24hUsd;
  const smartMoneyFlow = f.smartMoney.length === 0 ? 50 : 100 * (0.6 * ramp(exitShare, 0.1, 0.6) + (0.4 * ((smFlow > 0 ? netFlow / smFlow : 0) + 1)) / 2);

  const flags = RISK_FLAGS.filter((flag) => found.some((e) => e.flag === flag));
  const composite =
    WEIGHTS.holder * holderConcentration + WEIGHTS.liquidity * liquidityStability + WEIGHTS.wash * washTrade + WEIGHTS.smartMoney * smartMoneyFlow;
  const floor = Math.max(0, ...flags.map((fl) => FLOORS[fl]));
  const riskScore = Math.round((floor + ((100 - floor) * composite) / 100) * 10) / 10;
  return {
    holderConcentration,
    liquidityStability,
    washTrade,
    smartMoneyFlow,
    riskScore,
    riskLevel: riskLevel(riskScore),
    flags,
    evidence: flags.map((fl) => found.find((e) => e.flag === fl)!),
    top10Share,
    top1Share,
    washShare,
  };
}
