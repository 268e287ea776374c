import { describe, expect, it } from "vitest";
import { creatorSoldText, launchesSentence, unknownCreatorText } from "./words";

describe("launchesSentence", () => {
  it("says how many tokens the wallet created and on how many it pulled the liquidity", () => {
    expect(launchesSentence({ total: 7, trading: 1, liquidity_pulled: 5, abandoned: 1 })).toBe(
      "created 7 tokens, pulled liquidity on 5; 1 abandoned, 1 still trading",
    );
    expect(launchesSentence({ total: 1, trading: 1, liquidity_pulled: 0, abandoned: 0 })).toBe(
      "created 1 token, pulled liquidity on none; 1 still trading",
    );
    expect(launchesSentence({ total: 2, trading: 0, liquidity_pulled: 2, abandoned: 0 })).toBe(
      "created 2 tokens, pulled liquidity on 2",
    );
    expect(launchesSentence({ total: 0, trading: 0, liquidity_pulled: 0, abandoned: 0 })).toBe(
      "created no indexed token",
    );
  });
});

describe("the creator in words", () => {
  it("says why it is unknown, naming what the token came through", () => {
    const via = { kind: "factory" as const, name: "Uniswap V2" };
    expect(unknownCreatorText({ address: null, via, unknown_reason: "found_through_pool" })).toBe(
      "Creator unknown: the token was found through a Uniswap V2 pool, which does not say who deployed it.",
    );
  });

  it("says whether it sold, with its sells", () => {
    const holding = { quantity: 0, holding_pct: 0, value_usd: 0, buy_count: 0, sell_count: 2, sold_usd: 1500 };
    expect(creatorSoldText({ ...holding, sold: "sold_all" })).toBe("Sold all: 2 sells for $1.5K, nothing left.");
    expect(creatorSoldText({ ...holding, sell_count: 0, sold: "not_sold" })).toBe("Has not sold.");
  });
});
