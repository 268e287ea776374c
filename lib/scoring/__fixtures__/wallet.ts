/** Builders of wallet scoring inputs for the unit tests. */
import type { WalletPosition, WalletReputationInput, WalletTrade } from "../wallet-input";
import { addr, NOW, txHash } from "./token";

export const DAY = 86_400;

export function position(p: Partial<WalletPosition> = {}): WalletPosition {
  return {
    token: addr("t1"),
    boughtUsd: 1_000,
    soldUsd: 1_200,
    realizedPnlUsd: 200,
    unrealizedPnlUsd: 0,
    closed: true,
    closedAt: NOW - 10 * DAY,
    blocksAfterLaunch: 300,
    secondsAfterLaunch: 600,
    knownCostShare: 1,
    tokenRugged: false,
    insider: false,
    soldShare: 1,
    ...p,
  };
}

export function trade(p: Partial<WalletTrade> & Pick<WalletTrade, "direction" | "timestamp">): WalletTrade {
  return { token: addr("t1"), tokenAmount: 1_000, amountUsd: 100, block: 1, txHash: txHash(), ...p };
}

/** A plain wallet: a few months old, 12 closed trades over 12 weeks, 9 of them won. */
export function wallet(p: Partial<WalletReputationInput> = {}): WalletReputationInput {
  const positions = Array.from({ length: 12 }, (_, i) =>
    position({
      token: addr(`t${i}`),
      realizedPnlUsd: i < 9 ? 150 + i * 10 : -200,
      soldUsd: i < 9 ? 1_150 + i * 10 : 800,
      closedAt: NOW - (i + 1) * 7 * DAY,
    }),
  );
  return {
    address: addr("me"),
    now: NOW,
    firstSeen: NOW - 120 * DAY,
    tradeCount: 30,
    positions,
    trades: positions.flatMap((q, i) => [
      trade({ token: q.token, direction: "buy", timestamp: NOW - (i + 2) * 7 * DAY, tokenAmount: 5_000 + i }),
      trade({ token: q.token, direction: "sell", timestamp: NOW - (i + 1) * 7 * DAY, tokenAmount: 5_000 + i }),
    ]),
    linkedToCreator: false,
    inWashEvidence: false,
    pulledOwnLaunchLiquidity: [],
    portfolioValueUsd: 5_000,
    ...p,
  };
}
