import { describe, expect, it } from "vitest";
import { creatorSold, toTokenCreator } from "./creator";

describe("creatorSold", () => {
  it("reads a sell first: all sold when nothing is left, some otherwise, whatever it bought", () => {
    expect(creatorSold({ balance: 0n, buys: 0, sells: 1 })).toBe("sold_all");
    expect(creatorSold({ balance: 5n, buys: 3, sells: 2 })).toBe("sold_some");
    expect(creatorSold({ balance: 0n, buys: 3, sells: 2 })).toBe("sold_all");
  });

  it("without a sell: bought more after buys, not sold otherwise, even with its tokens moved away", () => {
    expect(creatorSold({ balance: 9n, buys: 1, sells: 0 })).toBe("bought_more");
    expect(creatorSold({ balance: 9n, buys: 0, sells: 0 })).toBe("not_sold");
    expect(creatorSold({ balance: 0n, buys: 0, sells: 0 })).toBe("not_sold");
  });
});

describe("toTokenCreator", () => {
  const creator = `0x${"c".repeat(40)}`;

  it("names the creator a launch event named, and what the token came through", () => {
    expect(toTokenCreator({ creator, origin: "launchpad", launchpad: "PumpPad" })).toEqual({
      address: creator,
      via: { kind: "launchpad", name: "PumpPad" },
      unknown_reason: null,
    });
  });

  it("says why a creator is unknown instead of guessing one", () => {
    expect(toTokenCreator({ creator: null, origin: "factory", launchpad: "Uniswap V2" })).toEqual({
      address: null,
      via: { kind: "factory", name: "Uniswap V2" },
      unknown_reason: "found_through_pool",
    });
    expect(toTokenCreator({ creator: null, origin: "launchpad", launchpad: "SilentPad" }).unknown_reason).toBe(
      "launch_event_names_none",
    );
  });
});
