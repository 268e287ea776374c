import { describe, expect, it } from "vitest";
import { baseProfile } from "./base";
import { devchainProfile } from "./devchain";
import { checkProfile } from "./index";

describe("chain profiles", () => {
  it("base carries Uniswap V2 and V3, the position manager, WETH and USDC with their decimals", () => {
    expect(checkProfile(baseProfile)).toBe(baseProfile);
    expect(baseProfile.factories.map((f) => f.protocol)).toEqual(["uniswap-v2", "uniswap-v3"]);
    expect(baseProfile.positionManagers).toHaveLength(1);
    expect(baseProfile.quoteTokens.find((q) => q.symbol === "USDC")).toMatchObject({ decimals: 6, stable: true });
  });

  it("maps a dev chain deployment of either shape, and says what is wrong with a bad profile", () => {
    const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
    const old = devchainProfile({
      chainId: 31337,
      rpcUrl: "x",
      deployBlock: 3,
      weth: a(1),
      usd: a(2),
      usdDecimals: 6,
      factory: { address: a(3), name: "DevSwap" },
      router: a(4),
      launchpads: [{ address: a(5), name: "PumpPad" }],
    });
    expect(checkProfile(old).launchpads[0]).toMatchObject({
      protocol: "uniswap-v2",
      event: expect.stringContaining("TokenLaunched"),
    });
    const next = devchainProfile({
      chainId: 31337,
      rpcUrl: "x",
      deployBlock: 3,
      weth: a(1),
      quoteTokens: [
        { address: a(1), symbol: "WETH", decimals: 18, stable: false },
        { address: a(2), symbol: "USDC", decimals: 6, stable: true },
      ],
      uniswapV2: { factory: a(3), router: a(4) },
      uniswapV3: { factory: a(6), positionManager: a(7), swapRouter: a(8), quoterV2: a(9), feeTiers: [500, 3000] },
      launchpads: [
        {
          address: a(5),
          name: "V3Pad",
          protocol: "uniswap-v3",
          event: "event Launched(address indexed token, address indexed pool, address indexed creator)",
        },
      ],
      lockers: [{ address: a(10), name: "Locker" }],
      otherContracts: [],
    });
    expect(checkProfile(next)).toMatchObject({
      positionManagers: [{ address: a(7) }],
      lockers: [{ address: a(10) }],
      otherContracts: [a(4), a(8)],
    });
    expect(() => checkProfile({ ...next, weth: a(2) })).toThrow("weth must be one of quoteTokens, not stable");
    expect(() => checkProfile({ ...next, lockers: [{ address: "0xABC", name: "x" }] })).toThrow(
      '"0xABC" is not a lowercase 0x address',
    );
    expect(() =>
      checkProfile({ ...next, launchpads: [{ ...next.launchpads[0], event: "Launched(address creator)" }] }),
    ).toThrow(/names no token/);
    expect(() => checkProfile({ ...next, launchpads: [], poolTokens: false })).toThrow(
      /no token would ever be indexed/,
    );
  });
});
