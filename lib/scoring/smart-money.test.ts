import { describe, expect, it } from "vitest";
import { addr, HEAD_BLOCK, swap } from "./__fixtures__/token";
import { smartMoneyFlow } from "./smart-money";
import type { SmartMoneyHolding } from "./token-input";

const sm = (n: number): SmartMoneyHolding[] =>
  Array.from({ length: n }, (_, i) => ({ wallet: addr(`sm${i}`), balance: 1_000, peakBalance: 10_000 }));

const sell = (i: number, tokenAmount: number, amountUsd = 500) =>
  swap({ wallet: addr(`sm${i}`), direction: "sell", tokenAmount, amountUsd, block: HEAD_BLOCK - 1_000 });
const buy = (i: number, amountUsd: number) =>
  swap({ wallet: addr(`sm${i}`), direction: "buy", tokenAmount: 1_000, amountUsd, block: HEAD_BLOCK - 900 });

describe("smart_money_flow_score and smart_money_exiting", () => {
  it("is unknown without smart money, not a middling 50", () => {
    expect(smartMoneyFlow([], [])).toMatchObject({ score: null, flag: null });
  });

  it("is raised when several smart-money wallets sold most of their peak and the flow is out", () => {
    const result = smartMoneyFlow(sm(4), [sell(0, 9_000), sell(1, 6_000), buy(2, 100)]);
    expect(result.exitShare).toBe(0.5);
    expect(result.netFlowUsd).toBe(-900);
    expect(result.flag?.wallets).toEqual([addr("sm0"), addr("sm1")]);
    expect(result.flag?.tx_hashes).toHaveLength(2);
    expect(result.score).toBeGreaterThan(60);
  });

  it("is not raised for partial profit taking", () => {
    const result = smartMoneyFlow(sm(4), [sell(0, 2_000), sell(1, 3_000)]);
    expect(result.exitShare).toBe(0);
    expect(result.flag).toBeNull();
  });

  it("is not raised when one of many exits, or when smart money is buying on net", () => {
    expect(smartMoneyFlow(sm(10), [sell(0, 9_000), sell(1, 9_000)]).flag).toBeNull();
    expect(smartMoneyFlow(sm(4), [sell(0, 9_000), sell(1, 9_000), buy(2, 5_000)]).flag).toBeNull();
  });

  it("scores buying smart money low", () => {
    expect(smartMoneyFlow(sm(4), [buy(0, 1_000), buy(1, 1_000)]).score).toBe(0);
  });
});
