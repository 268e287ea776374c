import { describe, expect, it } from "vitest";
import { addr, NOW, rng } from "./__fixtures__/token";
import { DAY, position, trade, wallet } from "./__fixtures__/wallet";
import { CLASSIFICATION_RULES, peakTradesPerMinute } from "./classification";
import type { WalletReputationInput } from "./wallet-input";
import { scoreWallet } from "./wallet-score";

const classify = (input: WalletReputationInput) => scoreWallet(input).classification;

/** 15 trades in 45 seconds. */
const burst = Array.from({ length: 15 }, (_, i) =>
  trade({ direction: i % 2 ? "sell" : "buy", timestamp: NOW - 3_600 + i * 3, tokenAmount: 1_000 + i * 100 }),
);
/** Five buy-then-sell round trips of the same amount of one token, a minute apart. */
const roundTrips = Array.from({ length: 5 }, (_, i) => [
  trade({ token: addr("washed"), direction: "buy" as const, timestamp: NOW - 50_000 + i * 600, tokenAmount: 7_000 }),
  trade({
    token: addr("washed"),
    direction: "sell" as const,
    timestamp: NOW - 50_000 + i * 600 + 60,
    tokenAmount: 7_000,
  }),
]).flat();
const sniped = (w: WalletReputationInput) =>
  w.positions.map((p) => ({ ...p, blocksAfterLaunch: 1, secondsAfterLaunch: 2 }));

describe("classification", () => {
  it("tries the rules in the documented order", () => {
    expect(CLASSIFICATION_RULES.map(([c]) => c)).toEqual([
      "insider",
      "wash_trader",
      "bot",
      "sniper",
      "smart_money",
      "whale",
      "fresh",
      "retail",
    ]);
  });

  it("calls a profitable, confident record smart money", () => {
    const result = scoreWallet(wallet());
    expect(result.reputationScore).toBeGreaterThanOrEqual(70);
    expect(result.classification).toBe("smart_money");
  });

  it("puts a creator link first, whatever else the wallet does", () => {
    const w = wallet();
    expect(classify({ ...w, linkedToCreator: true, trades: [...w.trades, ...burst], positions: sniped(w) })).toBe(
      "insider",
    );
  });

  it("puts wash trading before the bot rate it also trips", () => {
    const w = wallet();
    const fastRoundTrips = roundTrips.map((t, i) => ({ ...t, timestamp: NOW - 1_000 + i * 5 }));
    expect(peakTradesPerMinute(fastRoundTrips)).toBe(10);
    expect(classify({ ...w, trades: [...w.trades, ...fastRoundTrips] })).toBe("wash_trader");
    expect(classify({ ...w, trades: [...w.trades, ...roundTrips] })).toBe("wash_trader");
    expect(classify({ ...w, inWashEvidence: true })).toBe("wash_trader");
  });

  it("does not call a market maker's two-sided random-size trading wash trading", () => {
    const r = rng(3);
    const mm = Array.from({ length: 400 }, (_, i) =>
      trade({
        direction: r() < 0.5 ? "buy" : "sell",
        timestamp: NOW - 400 * 120 + i * 120,
        tokenAmount: 10_000 + r() * 90_000,
      }),
    );
    expect(classify({ ...wallet(), trades: mm })).toBe("smart_money");
  });

  it("puts the bot rate before sniping, and sniping before a good record", () => {
    const w = wallet();
    expect(classify({ ...w, trades: [...w.trades, ...burst], positions: sniped(w) })).toBe("bot");
    expect(classify({ ...w, positions: sniped(w) })).toBe("sniper");
  });

  it("calls size without a notable record a whale", () => {
    const losing = wallet({
      positions: Array.from({ length: 12 }, () => position({ realizedPnlUsd: -500, soldUsd: 500 })),
    });
    expect(classify(losing)).toBe("retail");
    expect(classify({ ...losing, portfolioValueUsd: 250_000 })).toBe("whale");
    const bigBuy = trade({ direction: "buy", timestamp: NOW - DAY, amountUsd: 25_000 });
    expect(classify({ ...losing, trades: [...losing.trades, bigBuy] })).toBe("whale");
    expect(classify({ ...losing, trades: [...losing.trades, { ...bigBuy, direction: "sell" }] })).toBe("retail");
    expect(classify({ ...wallet(), portfolioValueUsd: 250_000 })).toBe("smart_money");
  });

  it("calls a new wallet with few trades fresh, and an old unremarkable one retail", () => {
    const newcomer = wallet({ firstSeen: NOW - 6 * 3_600, tradeCount: 3, positions: [position()], trades: [] });
    expect(classify(newcomer)).toBe("fresh");
    expect(classify({ ...newcomer, firstSeen: NOW - 2 * DAY })).toBe("retail");
    expect(classify({ ...newcomer, tradeCount: 40 })).toBe("retail");
  });
});
