import { describe, expect, it } from "vitest";
import { applyMovement, emptyPosition } from "@/worker/derive/positions";
import { poolPriceUsd, tokenPrice, wethUsd } from "@/worker/derive/prices";
import { pnlConfidence } from "@/worker/derive/wallets";
import type { ChainLog } from "@/worker/indexer/decode";
import { isRangeLimitError, suggestedRangeEnd } from "@/worker/indexer/rpc";
import { ChainState } from "@/worker/indexer/state";
import { type TransferRow, transformRange } from "@/worker/indexer/transform";
import type { LogFields } from "@/worker/indexer/v3-pool";
import { fakeProfile } from "./fake-market";

/** The pure rules: provider range hints, pricing without dust pools, average-cost positions. */
describe("provider range limits", () => {
  const err = (message: string) => Object.assign(new Error(message), { details: message });
  it("recognizes range and size complaints, and nothing else", () => {
    expect(isRangeLimitError(err("query returned more than 10000 results"))).toBe(true);
    expect(isRangeLimitError(err("block range is too wide (max 500)"))).toBe(true);
    expect(isRangeLimitError(err("Log response size exceeded."))).toBe(true);
    expect(isRangeLimitError(err("internal error"))).toBe(false);
  });
  it("uses the range or size the provider suggests, if it is inside the request", () => {
    expect(suggestedRangeEnd(err("Try with this block range [0x64, 0x95]."), 100, 1000)).toBe(149);
    expect(suggestedRangeEnd(err("make requests with up to a 2K block range"), 100, 10_000)).toBe(2099);
    expect(suggestedRangeEnd(err("block range limit of 500"), 100, 1000)).toBe(599);
    expect(suggestedRangeEnd(err("Try with this block range [0x1, 0x95]."), 100, 1000)).toBeUndefined();
    expect(suggestedRangeEnd(err("query returned more than 10000 results"), 100, 1000)).toBeUndefined();
  });
});

describe("prices", () => {
  const E18 = 10n ** 18n;
  const state = new ChainState(fakeProfile);
  const [weth, usd] = [fakeProfile.weth, fakeProfile.quoteTokens[1].address];
  state.addToken({ address: "0xt1", decimals: 18, createdBlock: 1 });
  const v2 = { protocol: "uniswap-v2" as const, sqrtPriceX96: 0n, tick: 0, liquidity: 0n, createdBlock: 1 };
  state.addPool({ ...v2, address: "0xwu", token0: weth, token1: usd, reserve0: 100n * E18, reserve1: 300_000n * 10n ** 6n });
  state.addPool({ ...v2, address: "0xdeep", token0: "0xt1", token1: weth, reserve0: 1_000_000n * E18, reserve1: 10n * E18 });
  state.addPool({ ...v2, address: "0xdust", token0: "0xt1", token1: usd, reserve0: 1n * E18, reserve1: 50n * 10n ** 6n });

  it("prices WETH from its stable pairs and a token from its deepest whitelisted pair", () => {
    expect(wethUsd(state)).toBe(3000);
    const p = tokenPrice(state, "0xt1");
    expect(p.pool).toBe("0xdeep");
    expect(p.priceUsd).toBeCloseTo(0.03, 10); // 10 WETH × 3000 / 1,000,000
    expect(p.liquidityUsd).toBeCloseTo(60_000 + 100, 6);
  });
  it("gives no price when the deepest pair holds less quote than the profile's minimum", () => {
    const thin = new ChainState({ ...fakeProfile, minQuoteLiquidityUsd: 1_000_000 });
    for (const p of state.pools.values()) thin.addPool(p);
    thin.addToken({ address: "0xt1", decimals: 18, createdBlock: 1 });
    expect(tokenPrice(thin, "0xt1")).toMatchObject({ priceUsd: 0, pool: null });
  });
  it("prices from a V3 pool's sqrtPriceX96 with both tokens' decimals, whichever side the token is", () => {
    const v3 = new ChainState(fakeProfile);
    // 2,500 USD (6 decimals) per WETH (18): raw token1 per raw token0 = 2500e6 / 1e18.
    const sqrt = (raw1Per0: number) => BigInt(Math.round(Math.sqrt(raw1Per0) * 2 ** 96));
    const [t0, t1] = weth < usd ? [weth, usd] : [usd, weth];
    const raw = t0 === weth ? 2500e6 / 1e18 : 1e18 / 2500e6;
    v3.addPool({ ...v2, protocol: "uniswap-v3", address: "0xv3", token0: t0, token1: t1, reserve0: 10n * E18, reserve1: 10n * E18, sqrtPriceX96: sqrt(raw) });
    expect(wethUsd(v3)).toBeCloseTo(2500, 6);
    v3.addToken({ address: "0x01", decimals: 9, createdBlock: 1 });
    // 0.5 USD a token of 9 decimals: raw USD per raw token = 0.5e6 / 1e9 (the token sorts first).
    v3.addPool({
      ...v2,
      protocol: "uniswap-v3",
      address: "0xv3t",
      token0: "0x01",
      token1: usd,
      reserve0: 10n ** 15n,
      reserve1: 10n ** 12n,
      sqrtPriceX96: sqrt(0.5e6 / 1e9),
    });
    expect(tokenPrice(v3, "0x01")).toMatchObject({ pool: "0xv3t", priceUsd: expect.closeTo(0.5, 9) });
  });
});

describe("a pool's own price", () => {
  const E18 = 10n ** 18n;
  const state = new ChainState(fakeProfile);
  const [weth, usd] = [fakeProfile.weth, fakeProfile.quoteTokens[1].address];
  const base = { protocol: "uniswap-v2" as const, sqrtPriceX96: 0n, tick: 0, liquidity: 0n, createdBlock: 1, reserve0: 0n, reserve1: 0n };
  state.addPool({ ...base, address: "0xwu", token0: weth, token1: usd, reserve0: 100n * E18, reserve1: 300_000n * 10n ** 6n });
  // 0x01 sorts before every quote, 0xff after: V3 prices whichever side the token is on.
  state.addToken({ address: "0x01", decimals: 9, createdBlock: 1 });
  state.addToken({ address: "0xff", decimals: 18, createdBlock: 1 });
  const sqrt = (raw1Per0: number) => BigInt(Math.round(Math.sqrt(raw1Per0) * 2 ** 96));
  const pools = {
    // 10 WETH for 1,000,000 tokens at 3,000 USD a WETH.
    v2: { ...base, address: "0xa", token0: "0xff", token1: weth, reserve0: 1_000_000n * E18, reserve1: 10n * E18 },
    // A dust pool still has a price of its own (the dust rule decides only which pool prices the token).
    v2Dust: { ...base, address: "0xb", token0: "0x01", token1: usd, reserve0: 10n ** 9n, reserve1: 50n * 10n ** 6n },
    // 0.5 USD per token of 9 decimals, with balances that say 0.001 USD (the average a V3 pool's reserves give is not its price).
    v3TokenFirst: {
      ...base,
      protocol: "uniswap-v3" as const,
      address: "0xc",
      token0: "0x01",
      token1: usd,
      reserve0: 10n ** 15n,
      reserve1: 10n ** 9n,
      sqrtPriceX96: sqrt(0.5e6 / 1e9),
    },
    // 0.002 WETH per token, token second: raw token1 per raw token0 = 1e18 / 0.002e18.
    v3TokenSecond: {
      ...base,
      protocol: "uniswap-v3" as const,
      address: "0xd",
      token0: weth,
      token1: "0xff",
      reserve0: E18,
      reserve1: E18,
      sqrtPriceX96: sqrt(1 / 0.002),
    },
    v3Uninitialized: { ...base, protocol: "uniswap-v3" as const, address: "0xe", token0: "0x01", token1: weth, reserve0: E18, reserve1: E18 },
    bothQuotes: { ...base, address: "0xf", token0: weth, token1: usd, reserve0: E18, reserve1: 3000n * 10n ** 6n },
    noQuote: { ...base, address: "0x10", token0: "0x01", token1: "0xff", reserve0: E18, reserve1: E18 },
  };
  it.each([
    ["a V2 pair: its reserve ratio", pools.v2, 0.03],
    ["a dust V2 pair", pools.v2Dust, 50],
    ["a V3 pool, token first: its sqrtPriceX96", pools.v3TokenFirst, 0.5],
    ["a V3 pool, token second", pools.v3TokenSecond, 6],
    ["a V3 pool not yet initialized", pools.v3Uninitialized, null],
    ["a pool of two quote tokens", pools.bothQuotes, null],
    ["a pool without a quote token", pools.noQuote, null],
  ])("%s", (_, pool, expected) => {
    const price = poolPriceUsd(state, pool);
    if (expected === null) expect(price).toBeNull();
    else expect(price! / expected).toBeCloseTo(1, 9);
  });
});

describe("average-cost positions", () => {
  const t = (kind: TransferRow["kind"], amount: bigint, usd: number): TransferRow => ({
    block: 1,
    logIndex: 0,
    token: "0xt",
    from: "0xa",
    to: "0xb",
    amount,
    txHash: "0x",
    txFrom: "0xa",
    kind,
    amountUsd: usd,
    timestamp: 0,
  });
  it("realizes sells against the average cost and keeps the rest of the basis", () => {
    const p = emptyPosition("0xw", "0xt");
    applyMovement(p, t("buy", 100n, 100), "in");
    applyMovement(p, t("buy", 100n, 300), "in");
    applyMovement(p, t("sell", 50n, 150), "out");
    expect(p.quantity).toBe(150n);
    expect(p.realizedPnlUsd).toBeCloseTo(50); // 150 − 50 × 2
    expect(p.costBasisUsd).toBeCloseTo(300);
    expect([p.buyCount, p.sellCount]).toEqual([2, 1]);
  });
  it("counts tokens received by transfer at zero cost and remembers them", () => {
    const p = emptyPosition("0xw", "0xt");
    applyMovement(p, t("transfer", 100n, 500), "in");
    applyMovement(p, t("transfer", 40n, 200), "out");
    expect(p).toMatchObject({ quantity: 60n, unknownCostQuantity: 60n, costBasisUsd: 0, realizedPnlUsd: 0 });
    expect(pnlConfidence({ buys: 0, value: 10, unknownValue: 10 })).toBe("low");
    expect(pnlConfidence({ buys: 3, value: 100, unknownValue: 30 })).toBe("medium");
    expect(pnlConfidence({ buys: 3, value: 100, unknownValue: 5 })).toBe("high");
  });
});

/** A fee-on-transfer token in a V2 pair with the 6-decimals dollar (1 USD a token), and a transform of one trader's transactions. */
function feeMarket() {
  const E18 = 10n ** 18n;
  const state = new ChainState(fakeProfile);
  const [usd, fot, pair, trader] = [fakeProfile.quoteTokens[1].address, "0xf0", "0xpa", "0xtr"];
  state.addToken({ address: fot, decimals: 18, createdBlock: 1 });
  state.addPool({
    address: pair,
    protocol: "uniswap-v2",
    token0: fot,
    token1: usd,
    reserve0: 1_000n * E18,
    reserve1: 1_000n * 10n ** 6n,
    sqrtPriceX96: 0n,
    tick: 0,
    liquidity: 0n,
    createdBlock: 1,
  });
  let logIndex = 0;
  const log = (tx: string, l: LogFields & { address: string }): ChainLog =>
    ({ ...l, block: 2, logIndex: logIndex++, txHash: tx, txIndex: 0, blockHash: "0xb" }) as ChainLog;
  const transfer = (tx: string, token: string, from: string, to: string, value: bigint) => log(tx, { kind: "transfer", address: token, from, to, value });
  const buy = (tx: string, usdIn: bigint, out: bigint) => [
    transfer(tx, usd, trader, pair, usdIn),
    log(tx, { kind: "swap", address: pair, amount0In: 0n, amount1In: usdIn, amount0Out: out, amount1Out: 0n, recipient: trader }),
  ];
  const sell = (tx: string, tokensIn: bigint, usdOut: bigint) => [
    log(tx, { kind: "swap", address: pair, amount0In: tokensIn, amount1In: 0n, amount0Out: 0n, amount1Out: usdOut, recipient: trader }),
    transfer(tx, usd, pair, trader, usdOut),
  ];
  const transform = (logs: ChainLog[]) => {
    const txFrom = new Map(logs.map((l) => [l.txHash, trader]));
    const blocks = new Map([[2, { number: 2, hash: "0xb", parentHash: "0xa", timestamp: 0, txFrom, keep: true }]]);
    return transformRange({ from: 2, to: 2, logs, blocks, tokens: [], pools: [], fundings: [], quotePayments: [], quarantined: [] }, state);
  };
  /** The token's transfer rows: kind, from, to, USD value. */
  const legs = (rows: ReturnType<typeof transform>) =>
    rows.transfers.filter((t) => t.token === fot).map((t) => [t.kind, t.from, t.to, Number(t.amountUsd.toFixed(6))]);
  return { E18, state, usd, fot, pair, trader, transfer, buy, sell, transform, legs };
}

describe("a fee-on-transfer token's swaps", () => {
  // A token that burns 1% of every transfer.
  const { E18, fot, pair, trader, transfer, buy, sell, transform, legs: legsOf } = feeMarket();
  const zero = "0x0000000000000000000000000000000000000000";
  // A buy of 10 tokens for 10 USD: the pair sends 10, of which 0.1 is burnt; then a sell of 5: 0.05 burnt from the seller, 4.95 arrive.
  const rows = transform([
    transfer("0x1", fot, pair, zero, E18 / 10n),
    transfer("0x1", fot, pair, trader, (99n * E18) / 10n),
    ...buy("0x1", 10n * 10n ** 6n, 10n * E18),
    transfer("0x2", fot, trader, zero, (5n * E18) / 100n),
    transfer("0x2", fot, trader, pair, (495n * E18) / 100n),
    ...sell("0x2", (495n * E18) / 100n, 4_950_000n),
  ]);
  const legs = legsOf(rows);

  it("gives the buyer the whole quote it paid for what reached it, and makes the fees legs, not transfers", () => {
    expect(legs).toEqual([
      ["fee", pair, zero, 0.1],
      ["buy", pair, trader, 10],
      ["fee", trader, zero, 0.05],
      ["sell", trader, pair, 4.95],
    ]);
    expect(rows.events.map((e) => e.type)).toEqual(["swap", "swap"]);
    // A burn is a fee sink of every token: nothing to learn.
    expect(rows.feeSinks).toEqual([]);
  });

  it("realizes the seller's fee at its cost: a round trip loses the fees", () => {
    const p = emptyPosition(trader, fot);
    for (const t of rows.transfers.filter((t) => t.token === fot)) {
      if (t.to === trader) applyMovement(p, t, "in");
      if (t.from === trader) applyMovement(p, t, "out");
    }
    // 9.9 tokens for 10 USD; 5 of them out (0.05 burnt) for 4.95 USD: 4.95 - 5 x 10 / 9.9.
    expect(p.quantity).toBe((49n * E18) / 10n);
    expect(p.realizedPnlUsd).toBeCloseTo(4.95 - (5 * 10) / 9.9, 9);
    expect(p.costBasisUsd).toBeCloseTo((4.9 * 10) / 9.9, 9);
    expect([p.buyCount, p.sellCount]).toEqual([1, 1]);
  });
});

describe("a fee-on-transfer token that pays its fee to a wallet", () => {
  // 3% of every transfer goes to a marketing wallet; a friend of the trader is an ordinary address.
  const [wallet, friend] = ["0xmk", "0xfr"];
  const market = () => {
    const m = feeMarket();
    const tokens = (n: number) => (BigInt(Math.round(n * 100)) * m.E18) / 100n;
    const dollars = (n: number) => BigInt(Math.round(n * 100)) * 10n ** 4n;
    // A buy of 10: the pair sends 10 (its Swap says so), 0.3 to the wallet and 9.7 to the buyer.
    const shownBuy = [
      m.transfer("0x1", m.fot, m.pair, wallet, tokens(0.3)),
      m.transfer("0x1", m.fot, m.pair, m.trader, tokens(9.7)),
      ...m.buy("0x1", dollars(10), tokens(10)),
    ];
    return { ...m, tokens, dollars, shownBuy };
  };

  it("learns the wallet from a buy whose pool sent the whole amount, and counts its cut as a fee of each leg beside it", () => {
    const { fot, pair, trader, transfer, sell, transform, legs, tokens, dollars, shownBuy } = market();
    const rows = transform([
      ...shownBuy,
      // A sell of 5: 0.15 to the wallet, 4.85 reach the pair, which pays 4.85 USD.
      transfer("0x2", fot, trader, wallet, tokens(0.15)),
      transfer("0x2", fot, trader, pair, tokens(4.85)),
      ...sell("0x2", tokens(4.85), dollars(4.85)),
      // A transfer to the wallet beside no leg is a transfer.
      transfer("0x3", fot, trader, wallet, tokens(1)),
    ]);
    expect(legs(rows)).toEqual([
      ["fee", pair, wallet, 0.3],
      ["buy", pair, trader, 10],
      ["fee", trader, wallet, 0.15],
      ["sell", trader, pair, 4.85],
      ["transfer", trader, wallet, 1],
    ]);
    expect(rows.feeSinks).toEqual([{ token: fot, sink: wallet }]);
    expect(rows.events.map((e) => e.type)).toEqual(["swap", "swap", "transfer"]);
    // The round trip realizes the sell's fee: 4.85 - 5 x 10 / 9.7.
    const p = emptyPosition(trader, fot);
    for (const t of rows.transfers.filter((t) => t.token === fot && t.txHash !== "0x3")) {
      if (t.to === trader) applyMovement(p, t, "in");
      if (t.from === trader) applyMovement(p, t, "out");
    }
    expect(p.realizedPnlUsd).toBeCloseTo(4.85 - (5 * 10) / 9.7, 9);
  });

  it("is not fooled: a split the pool's Swap does not add up to, or a seller's transfer to an address no swap showed, stays a transfer", () => {
    const { state, fot, pair, trader, transfer, buy, sell, transform, legs, tokens, dollars, shownBuy } = market();
    const rows = transform([
      ...shownBuy,
      // The Swap says 9 out, the token's logs 10: no cut is shown, and the friend is no sink.
      transfer("0x4", fot, pair, friend, tokens(1)),
      transfer("0x4", fot, pair, trader, tokens(9)),
      ...buy("0x4", dollars(9), tokens(9)),
      // The seller pays its friend beside its sell: the friend is no sink of this token.
      transfer("0x5", fot, trader, friend, tokens(1)),
      transfer("0x5", fot, trader, pair, tokens(4)),
      ...sell("0x5", tokens(4), dollars(4)),
    ]);
    expect(legs(rows).map(([kind, , to]) => [kind, to])).toEqual([
      ["fee", wallet],
      ["buy", trader],
      ["buy", friend],
      ["buy", trader],
      ["transfer", friend],
      ["sell", pair],
    ]);
    expect([...state.feeSinks.get(fot)!]).toEqual([wallet]);
  });
});
