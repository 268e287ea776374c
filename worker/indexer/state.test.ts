import { describe, expect, it } from "vitest";
import { fakeProfile } from "../test/fake-market";
import type { ChainLog } from "./decode";
import { balancesOf, ChainState, positionKey } from "./state";
import { transformRange } from "./transform";

const usd = fakeProfile.quoteTokens[1].address;
const empty = { reserve0: 0n, reserve1: 0n, sqrtPriceX96: 0n, tick: 0, liquidity: 0n, createdBlock: 1 };

/** A state of three V2 pools of three tokens, each with reserves of its own. */
function market() {
  const state = new ChainState(fakeProfile);
  for (const [i, token] of ["0x01", "0x02", "0x03"].entries()) {
    state.addToken({ address: token, decimals: 18, createdBlock: 1 });
    state.addPool({
      ...empty,
      address: `0xp${i}`,
      protocol: "uniswap-v2",
      token0: token,
      token1: usd,
      reserve0: BigInt(i + 1),
    });
  }
  return state;
}

/** Syncs of `pools` to (n, n) at block 2, in order. */
function syncs(state: ChainState, pools: [string, bigint][]) {
  const logs = pools.map(
    ([address, n], logIndex) =>
      ({
        kind: "sync",
        address,
        reserve0: n,
        reserve1: n,
        block: 2,
        logIndex,
        txHash: "0xt",
        txIndex: 0,
        blockHash: "0xb",
      }) as ChainLog,
  );
  const block = { number: 2, hash: "0xb", parentHash: "0xa", timestamp: 0, txFrom: new Map(), keep: true };
  const none = { tokens: [], pools: [], fundings: [], quotePayments: [], quarantined: [] };
  return transformRange({ from: 2, to: 2, logs, blocks: new Map([[2, block]]), ...none }, state);
}

const reserves = (state: ChainState) => [...state.pools.values()].map((p) => balancesOf(p).reserve0);

describe("ChainState.saveReserves", () => {
  it("undoes what transforms moved since, however often it is called", () => {
    const state = market();
    const restore = state.saveReserves();
    syncs(state, [
      ["0xp0", 10n],
      ["0xp0", 11n],
    ]);
    expect(reserves(state)).toEqual([11n, 2n, 3n]);
    restore();
    expect(reserves(state)).toEqual([1n, 2n, 3n]);
    // A second attempt moves another pool first; its restore puts back both.
    syncs(state, [
      ["0xp2", 30n],
      ["0xp0", 12n],
    ]);
    restore();
    expect(reserves(state)).toEqual([1n, 2n, 3n]);
  });

  it("keeps what was moved before it, and forgets positions found after it", () => {
    const state = market();
    syncs(state, [["0xp1", 20n]]);
    state.addPosition(positionKey("0xpm", 1n), { pool: "0xp1" });
    const restore = state.saveReserves();
    syncs(state, [["0xp1", 21n]]);
    state.addPosition(positionKey("0xpm", 2n), { pool: "0xp1" });
    restore();
    expect(reserves(state)).toEqual([1n, 20n, 3n]);
    expect([...state.positions.keys()]).toEqual([positionKey("0xpm", 1n)]);
  });

  it("journals only from the latest save on", () => {
    const state = market();
    const first = state.saveReserves();
    syncs(state, [["0xp0", 10n]]);
    const second = state.saveReserves();
    syncs(state, [["0xp0", 11n]]);
    second();
    expect(reserves(state)).toEqual([10n, 2n, 3n]);
    first();
    expect(reserves(state)).toEqual([1n, 2n, 3n]);
  });
});

describe("ChainState.watchedAddresses", () => {
  it("lists what was watched since a count, without repeats", () => {
    const state = market();
    const before = state.watchedAddresses();
    expect(new Set(before).size).toBe(before.length);
    expect(before).toEqual(expect.arrayContaining(["0x01", "0x02", "0x03", "0xp0", "0xp1", "0xp2"]));
    state.discovered(
      [{ address: "0x04", decimals: 18, createdBlock: 2 }],
      [{ address: "0xp3", protocol: "uniswap-v2", token0: "0x04", token1: usd, createdBlock: 2 }],
    );
    state.discovered([{ address: "0x04", decimals: 18, createdBlock: 2 }], []);
    expect(state.watchedAddresses(before.length)).toEqual(["0x04", "0xp3"]);
    expect(state.watchedAddresses()).toEqual([...before, "0x04", "0xp3"]);
  });
});
