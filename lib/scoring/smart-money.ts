/**
 * smart_money_flow_score and the smart_money_exiting flag: are wallets with a record of good
 * trades (classification smart_money) leaving the token? Nansen-style smart-money flows: the
 * share of them that sold most of their position recently, and the direction of their net flow.
 */
import { type FlagEvidence, flagEvidence } from "./evidence";
import { rampScore, sum } from "./ramp";
import type { SmartMoneyHolding, Swap } from "./token-input";
import { SMART_MONEY, SMART_MONEY_EXITING_FLAG, SMART_MONEY_FLOW_SCORE } from "./weights";

export type SmartMoneyResult = {
  /** Null when no smart-money wallet held the token: unknown, not a middling 50. */
  score: number | null;
  exitShare: number;
  netFlowUsd: number;
  flag: FlagEvidence | null;
};

/** `swaps` are the recent ones (the swap lookback window). */
export function smartMoneyFlow(smartMoney: SmartMoneyHolding[], swaps: Swap[]): SmartMoneyResult {
  if (smartMoney.length === 0) return { score: null, exitShare: 0, netFlowUsd: 0, flag: null };
  const members = new Set(smartMoney.map((s) => s.wallet));
  const theirSwaps = swaps.filter((s) => members.has(s.wallet));
  const sells = theirSwaps.filter((s) => s.direction === "sell");
  const boughtUsd = sum(theirSwaps.filter((s) => s.direction === "buy").map((s) => s.amountUsd));
  const soldUsd = sum(sells.map((s) => s.amountUsd));
  const netFlowUsd = boughtUsd - soldUsd;

  // Summed per wallet in one pass, in swap order, as each wallet's own sum would add them.
  const soldBy = new Map<string, number>();
  for (const s of sells) soldBy.set(s.wallet, (soldBy.get(s.wallet) ?? 0) + s.tokenAmount);
  const exiting = smartMoney.filter(
    (h) => h.peakBalance > 0 && (soldBy.get(h.wallet) ?? 0) >= SMART_MONEY.exitSoldShareOfPeak * h.peakBalance,
  );
  const exitShare = exiting.length / smartMoney.length;
  const flowDirection = boughtUsd + soldUsd > 0 ? (soldUsd - boughtUsd) / (boughtUsd + soldUsd) : 0;
  const score = rampScore({ exit_share: exitShare, flow_direction: flowDirection }, SMART_MONEY_FLOW_SCORE);

  const t = SMART_MONEY_EXITING_FLAG;
  const raised = exiting.length >= t.exiting_wallets && exitShare >= t.exit_share && netFlowUsd < t.net_flow_usd;
  const exitingWallets = new Set(exiting.map((h) => h.wallet));
  const flag = raised
    ? flagEvidence("smart_money_exiting", {
        wallets: [...exitingWallets],
        txHashes: sells.filter((s) => exitingWallets.has(s.wallet)).map((s) => s.txHash),
        funder: null,
        metrics: {
          exiting_wallets: exiting.length,
          exit_share: exitShare,
          net_flow_usd: netFlowUsd,
          smart_money_wallets: smartMoney.length,
        },
        thresholds: { ...t },
        tripped: ["exiting_wallets", "exit_share", "net_flow_usd"],
      })
    : null;
  return { score, exitShare, netFlowUsd, flag };
}
