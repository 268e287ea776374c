import { describe, expect, it } from "vitest";
import { type ChainEvent, eventFires, priceConditionHolds, priceConditionsConflict } from "./alert-conditions";

const [W, X, T, U] = ["0xw", "0xx", "0xt", "0xu"];
const swap = (direction: string, over: Partial<ChainEvent> = {}): ChainEvent => ({
  type: "swap",
  direction,
  wallet: W,
  to: null,
  token: T,
  amountUsd: 100,
  smartMoney: false,
  ...over,
});

describe("event alerts' rule", () => {
  it("fires a wallet alert on its wallet's watched actions only, for its token and from its minimum", () => {
    const c = {
      wallet_address: W,
      actions: ["buy" as const, "receive" as const],
      token_address: T,
      min_amount_usd: 50,
    };
    expect(eventFires("wallet", c, swap("buy"))).toBe(true);
    expect(eventFires("wallet", c, swap("sell"))).toBe(false);
    expect(eventFires("wallet", c, swap("buy", { wallet: X }))).toBe(false);
    expect(eventFires("wallet", c, swap("buy", { token: U }))).toBe(false);
    expect(eventFires("wallet", c, swap("buy", { amountUsd: 49 }))).toBe(false);
    // A transfer is the receiver's receipt, not the sender's.
    expect(eventFires("wallet", c, { ...swap(""), type: "transfer", direction: null, wallet: X, to: W })).toBe(true);
    expect(eventFires("wallet", c, { ...swap(""), type: "transfer", direction: null, wallet: W, to: X })).toBe(false);
    const launch: ChainEvent = { ...swap(""), type: "launch", direction: null, amountUsd: 0 };
    expect(eventFires("wallet", { wallet_address: W, actions: ["launch"], min_amount_usd: 1_000 }, launch)).toBe(true);
  });

  it("fires a smart-money alert on buys by smart-money wallets, of its token or any", () => {
    expect(eventFires("smart_money", {}, swap("buy", { smartMoney: true }))).toBe(true);
    expect(eventFires("smart_money", {}, swap("buy"))).toBe(false);
    expect(eventFires("smart_money", {}, swap("sell", { smartMoney: true }))).toBe(false);
    expect(eventFires("smart_money", { token_address: U }, swap("buy", { smartMoney: true }))).toBe(false);
  });
});

describe("price alerts' rule", () => {
  const priced = (priceUsd: number, change: number | null = null) => ({
    priceUsd,
    priceChange5mPct: null,
    priceChange1hPct: change,
    priceChange24hPct: null,
  });
  it("reads a level on either side, a move in a window, and nothing without a price", () => {
    expect(priceConditionHolds(priced(1), { token_address: T, crosses: "above", price_usd: 1 })).toBe(true);
    expect(priceConditionHolds(priced(0.99), { token_address: T, crosses: "above", price_usd: 1 })).toBe(false);
    expect(priceConditionHolds(priced(0), { token_address: T, crosses: "below", price_usd: 1 })).toBe(false);
    const move = { token_address: T, change_pct: 10, window: "1h" as const };
    expect(priceConditionHolds(priced(1, -12), { ...move, moves: "down" })).toBe(true);
    expect(priceConditionHolds(priced(1, -12), { ...move, moves: "up" })).toBe(false);
    expect(priceConditionHolds(priced(1, 10), { ...move, moves: "either" })).toBe(true);
    expect(priceConditionHolds(priced(1, null), { ...move, moves: "either" })).toBe(false);
  });

  it("takes one form, complete", () => {
    expect(priceConditionsConflict({ crosses: "above", price_usd: 1 })).toBeNull();
    expect(priceConditionsConflict({ moves: "up", change_pct: 5, window: "5m" })).toBeNull();
    expect(priceConditionsConflict({})?.param).toBe("crosses");
    expect(priceConditionsConflict({ crosses: "above" })?.param).toBe("price_usd");
    expect(priceConditionsConflict({ moves: "up", change_pct: 5 })?.param).toBe("window");
    expect(priceConditionsConflict({ crosses: "above", price_usd: 1, change_pct: 5 })?.param).toBe("moves");
  });
});
