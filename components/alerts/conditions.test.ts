import { describe, expect, it } from "vitest";
import { tokenFilterFields } from "../tokens/filter-fields";
import { describeConditions, kindConditionsOf, kindDraftOf, kindDraftReady } from "./conditions";

const W = `0x${"ab".repeat(20)}`;
const T = `0x${"cd".repeat(20)}`;

describe("the alert builder's drafts of the other kinds", () => {
  it("become the kind's conditions, leaving out what is empty, and come back from them", () => {
    const wallet = { wallet_address: ` ${W} `, actions: "buy,launch", token_address: "", min_amount_usd: "250" };
    expect(kindConditionsOf("wallet", wallet)).toEqual({
      wallet_address: W,
      actions: ["buy", "launch"],
      min_amount_usd: 250,
    });
    expect(kindDraftOf("wallet", { wallet_address: W, actions: ["sell"] })).toEqual({
      wallet_address: W,
      actions: "sell",
    });

    // A price draft keeps both forms' fields as typed; only the chosen form's are sent.
    const price = {
      token_address: T,
      mode: "moves",
      crosses: "above",
      price_usd: "2",
      moves: "down",
      change_pct: "15",
      window: "5m",
    };
    expect(kindConditionsOf("price", price)).toEqual({ token_address: T, moves: "down", change_pct: 15, window: "5m" });
    expect(kindConditionsOf("price", { ...price, mode: "crosses" })).toEqual({
      token_address: T,
      crosses: "above",
      price_usd: 2,
    });
    expect(kindDraftOf("price", { token_address: T, crosses: "below", price_usd: 0.5 })).toMatchObject({
      mode: "crosses",
      price_usd: "0.5",
    });

    expect(kindConditionsOf("smart_money", { token_address: "", min_amount_usd: "" })).toEqual({});
  });

  it("are previewed once their kind has what it needs", () => {
    expect(kindDraftReady("wallet", { wallet_address: W, actions: "" })).toBe(false);
    expect(kindDraftReady("wallet", { wallet_address: W.slice(0, 20), actions: "buy" })).toBe(false);
    expect(kindDraftReady("wallet", { wallet_address: W, actions: "buy" })).toBe(true);
    expect(kindDraftReady("smart_money", {})).toBe(true);
    expect(kindDraftReady("smart_money", { token_address: "0x12" })).toBe(false);
    expect(kindDraftReady("price", { token_address: T, mode: "crosses", price_usd: "" })).toBe(false);
    expect(kindDraftReady("price", { token_address: T, mode: "moves", change_pct: "10", window: "1h" })).toBe(true);
  });

  it("are listed in words", () => {
    const fields = tokenFilterFields();
    expect(describeConditions("wallet", { wallet_address: W, actions: ["buy", "receive"] } as never, fields)).toEqual([
      "Wallet 0xabab…abab buys, receives (any token)",
    ]);
    expect(
      describeConditions("price", { token_address: T, moves: "either", change_pct: 20, window: "1h" } as never, fields),
    ).toEqual(["Price of 0xcdcd…cdcd moves up or down 20% within 1 h"]);
    expect(describeConditions("smart_money", { min_amount_usd: 1000 } as never, fields)).toEqual([
      "A smart-money wallet buys any token",
      "Worth at least $1,000",
    ]);
  });
});
