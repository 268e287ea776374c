import { describe, expect, it } from "vitest";
import { applyMovement, Books, emptyPosition, HeldBooks, PositionFold } from "@/worker/derive/positions";
import { MAX_USD, poolPriceUsd, tokenPrice, wethUsd } from "@/worker/derive/prices";
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
  state.addPool({
    ...v2,
    address: "0xwu",
    token0: weth,
    token1: usd,
    reserve0: 100n * E18,
    reserve1: 300_000n * 10n ** 6n,
  });
  state.addPool({
    ...v2,
    address: "0xdeep",
    token0: "0xt1",
    token1: weth,
    reserve0: 1_000_000n * E18,
    reserve1: 10n * E18,
  });
  state.addPool({
    ...v2,
    address: "0xdust",
    token0: "0xt1",
    token1: usd,
    reserve0: 1n * E18,
    reserve1: 50n * 10n ** 6n,
  });

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
    v3.addPool({
      ...v2,
      protocol: "uniswap-v3",
      address: "0xv3",
      token0: t0,
      token1: t1,
      reserve0: 10n * E18,
      reserve1: 10n * E18,
      sqrtPriceX96: sqrt(raw),
    });
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
  const base = {
    protocol: "uniswap-v2" as const,
    sqrtPriceX96: 0n,
    tick: 0,
    liquidity: 0n,
    createdBlock: 1,
    reserve0: 0n,
    reserve1: 0n,
  };
  state.addPool({
    ...base,
    address: "0xwu",
    token0: weth,
    token1: usd,
    reserve0: 100n * E18,
    reserve1: 300_000n * 10n ** 6n,
  });
  // 0x01 sorts before every quote, 0xff after: V3 prices whichever side the token is on.
  state.addToken({ address: "0x01", decimals: 9, createdBlock: 1 });
  state.addToken({ address: "0xff", decimals: 18, createdBlock: 1 });
  const sqrt = (raw1Per0: number) => BigInt(Math.round(Math.sqrt(raw1Per0) * 2 ** 96));
  const pools = {
    // 10 WETH for 1,000,000 tokens at 3,000 USD a WETH.
    v2: { ...base, address: "0xa", token0: "0xff", token1: weth, reserve0: 1_000_000n * E18, reserve1: 10n * E18 },
    // A dust pool still has a price of its own (the dust rule decides only which pool prices the token).
    v2Dust: { ...base, address: "0xb", token0: "0x01", token1: usd, reserve0: 10n ** 9n, reserve1: 50n * 10n ** 6n },
    // 0.5 USD per token of 9 decimals, with balances that say 0.001 USD (the average a V3 pool's reserves give is not
    // its price).
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
    v3Uninitialized: {
      ...base,
      protocol: "uniswap-v3" as const,
      address: "0xe",
      token0: "0x01",
      token1: weth,
      reserve0: E18,
      reserve1: E18,
    },
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

/**
 * A fee-on-transfer token in a V2 pair with the 6-decimals dollar (1 USD a token), and a transform of one trader's
 * transactions.
 */
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
  const transfer = (tx: string, token: string, from: string, to: string, value: bigint) =>
    log(tx, { kind: "transfer", address: token, from, to, value });
  const buy = (tx: string, usdIn: bigint, out: bigint) => [
    transfer(tx, usd, trader, pair, usdIn),
    log(tx, {
      kind: "swap",
      address: pair,
      amount0In: 0n,
      amount1In: usdIn,
      amount0Out: out,
      amount1Out: 0n,
      recipient: trader,
    }),
  ];
  const sell = (tx: string, tokensIn: bigint, usdOut: bigint) => [
    log(tx, {
      kind: "swap",
      address: pair,
      amount0In: tokensIn,
      amount1In: 0n,
      amount0Out: 0n,
      amount1Out: usdOut,
      recipient: trader,
    }),
    transfer(tx, usd, pair, trader, usdOut),
  ];
  const transform = (logs: ChainLog[]) => {
    const txFrom = new Map(logs.map((l) => [l.txHash, trader]));
    const blocks = new Map([[2, { number: 2, hash: "0xb", parentHash: "0xa", timestamp: 0, txFrom, keep: true }]]);
    return transformRange(
      { from: 2, to: 2, logs, blocks, tokens: [], pools: [], fundings: [], quotePayments: [], quarantined: [] },
      state,
    );
  };
  /** The token's transfer rows: kind, from, to, USD value. */
  const legs = (rows: ReturnType<typeof transform>) =>
    rows.transfers.filter((t) => t.token === fot).map((t) => [t.kind, t.from, t.to, Number(t.amountUsd.toFixed(6))]);
  return { E18, state, usd, fot, pair, trader, transfer, buy, sell, transform, legs };
}

describe("a bulk load's held books", () => {
  const [wallet, token, pool] = ["0xw", "0xt", "0xp"];
  /** The books a range's fold starts from: one position and one stake, filled from the held ones. */
  const filled = (held: HeldBooks) => {
    const books = new Books();
    books.position(wallet, token);
    books.stake(wallet, pool, token);
    held.fill(books);
    return books;
  };

  it("hold a range's fold once its transaction commits, as the rows would store it", () => {
    const held = new HeldBooks();
    const folded = new Books();
    Object.assign(folded.position(wallet, token), {
      quantity: 5n,
      buyCount: 1,
      boughtUsd: Number.NaN,
      soldUsd: 1e300,
      firstBuyBlock: 3,
    });
    Object.assign(folded.position(pool, token), { quantity: 2n, sellCount: 2, lastTradeBlock: 4 });
    Object.assign(folded.stake(wallet, pool, token), { units: 7n, costUsd: -1e300 });
    // Rolled back (a trial write, or a range written again without a quarantined entity): nothing held.
    held.stage(folded);
    held.drop();
    expect(filled(held).position(wallet, token)).toEqual(emptyPosition(wallet, token));
    held.stage(folded);
    held.keep();
    const next = filled(held);
    expect(next.position(wallet, token)).toEqual({
      ...emptyPosition(wallet, token),
      quantity: 5n,
      buyCount: 1,
      boughtUsd: 0,
      soldUsd: MAX_USD,
      firstBuyBlock: 3,
    });
    next.position(pool, token);
    held.fill(next);
    expect(next.position(pool, token)).toEqual({
      ...emptyPosition(pool, token),
      quantity: 2n,
      sellCount: 2,
      lastTradeBlock: 4,
    });
    expect(next.stake(wallet, pool, token)).toEqual({ wallet, pool, token, units: 7n, costUsd: -MAX_USD });
    // A later fold moves its own copy: the held books change only when it is kept.
    next.position(wallet, token).quantity = 9n;
    expect(filled(held).position(wallet, token).quantity).toBe(5n);
  });
});

describe("a fee-on-transfer token's swaps", () => {
  // A token that burns 1% of every transfer.
  const { E18, fot, pair, trader, transfer, buy, sell, transform, legs: legsOf } = feeMarket();
  const zero = "0x0000000000000000000000000000000000000000";
  // A buy of 10 tokens for 10 USD: the pair sends 10, of which 0.1 is burnt; then a sell of 5: 0.05 burnt from the
  // seller, 4.95 arrive.
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

  it("learns the wallet from a buy whose pool sent the whole amount; its cut is a fee of each leg beside it", () => {
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

  it("is not fooled: a split the pool's Swap does not add up to, or a transfer to an address no swap showed", () => {
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

/**
 * A token against the 6-decimals dollar (1 USD a dollar), in a V2 pair or a V3 pool, and the
 * transactions of a creator, a trader and a router; transformed as the indexer does, then folded
 * into books as applyPositions folds them.
 */
function liquidityMarket(protocol: "uniswap-v2" | "uniswap-v3") {
  const E18 = 10n ** 18n;
  const E6 = 10n ** 6n;
  const state = new ChainState(fakeProfile);
  const usd = fakeProfile.quoteTokens[1].address;
  const [token, pool, creator, trader, router, launchpad] = ["0x01", "0xpl", "0xcr", "0xtr", "0xro", "0xpad"];
  const zero = "0x0000000000000000000000000000000000000000";
  state.addToken({ address: token, decimals: 18, createdBlock: 1 });
  const empty = { reserve0: 0n, reserve1: 0n, sqrtPriceX96: 0n, tick: 0, liquidity: 0n, createdBlock: 1 };
  state.addPool({ ...empty, address: pool, protocol, token0: token, token1: usd });
  let logIndex = 0;
  const logs: ChainLog[] = [];
  const senders = new Map<string, string>();
  /** Logs of one transaction, sent by `from`. */
  const tx = (hash: string, from: string, fields: (LogFields & { address: string })[]) => {
    senders.set(hash, from);
    for (const l of fields) {
      logs.push({ ...l, block: 2, logIndex: logIndex++, txHash: hash, txIndex: 0, blockHash: "0xb" } as ChainLog);
    }
  };
  const transfer = (address: string, from: string, to: string, value: bigint) => {
    return { kind: "transfer", address, from, to, value } as const;
  };
  /** sqrtPriceX96 for `usdPerToken`, the token being token0 (18 decimals) and the dollar token1 (6). */
  const sqrtPrice = (usdPerToken: number) => BigInt(Math.round(Math.sqrt(usdPerToken * 1e-12) * 2 ** 96));
  const transform = () => {
    const block = { number: 2, hash: "0xb", parentHash: "0xa", timestamp: 0, txFrom: senders, keep: true };
    const none = { tokens: [], pools: [], fundings: [], quotePayments: [], quarantined: [] };
    return transformRange({ from: 2, to: 2, logs, blocks: new Map([[2, block]]), ...none }, state);
  };
  const books = () => {
    const rows = transform();
    const fold = new PositionFold(state, rows);
    fold.run();
    return { rows, books: fold.books };
  };
  /** A position's PnL at `price`: realized plus its holding's value less its cost basis. */
  const pnl = (p: ReturnType<typeof emptyPosition>, price: number) => {
    const value = (Number(p.quantity) / 1e18) * price;
    return p.realizedPnlUsd + value - p.costBasisUsd;
  };
  const addresses = { token, pool, creator, trader, router, launchpad, zero };
  return { E18, E6, state, usd, ...addresses, tx, transfer, sqrtPrice, transform, books, pnl };
}

describe("liquidity in positions and PnL", () => {
  type Market = ReturnType<typeof liquidityMarket>;
  /** A V2 launch: the creator mints 1,000 tokens, pairs them all with 1,000 dollars; a trader buys 500 for 1,000. */
  function v2Launch(m: Market, shares: bigint) {
    const { E18, E6, usd, token, pool, creator, trader, zero, tx, transfer } = m;
    tx("0xa", creator, [transfer(token, zero, creator, 1_000n * E18)]);
    tx("0xb", creator, [
      transfer(token, creator, pool, 1_000n * E18),
      transfer(usd, creator, pool, 1_000n * E6),
      transfer(pool, zero, zero, 1_000n),
      transfer(pool, zero, creator, shares),
      { kind: "sync", address: pool, reserve0: 1_000n * E18, reserve1: 1_000n * E6 },
      { kind: "mint", address: pool, amount0: 1_000n * E18, amount1: 1_000n * E6 },
    ]);
    const swap = { amount0In: 0n, amount1In: 1_000n * E6, amount0Out: 500n * E18, amount1Out: 0n, recipient: trader };
    tx("0xc", trader, [
      transfer(usd, trader, pool, 1_000n * E6),
      { kind: "sync", address: pool, reserve0: 500n * E18, reserve1: 2_000n * E6 },
      { kind: "swap", address: pool, ...swap },
      transfer(token, pool, trader, 500n * E18),
    ]);
  }
  /** The creator burns `burnt` of the pair's `shares`: the pair pays that share of 500 tokens and 2,000 dollars. */
  function v2Removal(m: Market, shares: bigint, burnt: bigint, to: string) {
    const { E18, E6, usd, token, pool, creator, zero, tx, transfer } = m;
    const [tokens, dollars] = [(500n * E18 * burnt) / shares, (2_000n * E6 * burnt) / shares];
    tx("0xd", creator, [
      transfer(pool, creator, pool, burnt),
      transfer(pool, pool, zero, burnt),
      transfer(token, pool, to, tokens),
      transfer(usd, pool, to, dollars),
      { kind: "sync", address: pool, reserve0: 500n * E18 - tokens, reserve1: 2_000n * E6 - dollars },
      { kind: "burn", address: pool, amount0: tokens, amount1: dollars },
    ]);
  }
  const shares = 10n ** 21n;

  it("books a V2 rug's quote and tokens as the creator's proceeds, against what its liquidity cost", () => {
    const m = liquidityMarket("uniswap-v2");
    v2Launch(m, shares);
    v2Removal(m, shares, shares, m.creator);
    const { rows, books } = m.books();
    // The facts: the sender's liquidity, shares and quote; the token legs at the pool's price (1, then 4 dollars).
    expect(rows.liquidity.map((c) => [c.wallet, c.direction, c.units, c.quoteUsd])).toEqual([
      [m.creator, "add", shares, 1_000],
      [m.creator, "remove", shares, 2_000],
    ]);
    const legs = rows.transfers.filter((t) => t.token === m.token && t.kind.startsWith("lp_"));
    expect(legs.map((t) => [t.kind, t.amountUsd])).toEqual([
      ["lp_add", 1_000],
      ["lp_remove", 2_000],
    ]);
    // In: 1,000 dollars and 1,000 tokens minted at no cost. Out: 2,000 dollars and 500 tokens worth 2,000.
    const p = books.position(m.creator, m.token);
    expect(p.quantity).toBe(500n * m.E18);
    expect(p.realizedPnlUsd).toBeCloseTo(2_000 - 1_000 + 2_000, 9);
    expect(p.costBasisUsd).toBeCloseTo(2_000, 9);
    expect([p.liquidityCostUsd, books.stake(m.creator, m.pool, m.token).units]).toEqual([0, 0n]);
    expect(m.pnl(p, 4)).toBeCloseTo(3_000, 9);
    // Once the pool is gone its tokens are worth nothing: the profit is the 1,000 dollars it took more than it put in.
    expect(m.pnl(p, 0)).toBeCloseTo(1_000, 9);
  });

  it("releases a removal's share of the cost, with the same PnL when a router passes the tokens on", () => {
    const direct = liquidityMarket("uniswap-v2");
    v2Launch(direct, shares);
    v2Removal(direct, shares, shares / 4n, direct.creator);
    const routed = liquidityMarket("uniswap-v2");
    v2Launch(routed, shares);
    v2Removal(routed, shares, shares / 4n, routed.router);
    routed.tx("0xe", routed.creator, [routed.transfer(routed.token, routed.router, routed.creator, 125n * routed.E18)]);

    const a = direct.books().books;
    const p = a.position(direct.creator, direct.token);
    // A quarter of the liquidity: a quarter of its 1,000 cost against 500 dollars and 125 tokens worth 500.
    expect(p.realizedPnlUsd).toBeCloseTo(500 - 250 + 500, 9);
    expect(p.liquidityCostUsd).toBeCloseTo(750, 9);
    const left = { units: (shares * 3n) / 4n, costUsd: 750 };
    expect(a.stake(direct.creator, direct.pool, direct.token)).toMatchObject(left);
    // Through the router the tokens come as a transfer, of unknown cost: only the quote is realized; the same PnL.
    const q = routed.books().books.position(routed.creator, routed.token);
    expect(q.quantity).toBe(p.quantity);
    expect(q.realizedPnlUsd).toBeCloseTo(500 - 250, 9);
    expect(q.unknownCostQuantity).toBe(q.quantity);
    for (const price of [0, 1, 4]) expect(direct.pnl(q, price)).toBeCloseTo(direct.pnl(p, price), 9);
  });

  it("stakes a fee-on-transfer token's liquidity leg at its cost, the fee realized as a loss", () => {
    const m = liquidityMarket("uniswap-v2");
    const { E18, E6, usd, token, pool, creator, zero, tx, transfer } = m;
    // The creator holds 100 tokens that cost it 100 dollars and pairs them (1 burnt on the way) with 99 dollars.
    tx("0xc", creator, [
      transfer(token, creator, zero, E18),
      transfer(token, creator, pool, 99n * E18),
      transfer(usd, creator, pool, 99n * E6),
      transfer(pool, zero, creator, shares),
      { kind: "sync", address: pool, reserve0: 99n * E18, reserve1: 99n * E6 },
      { kind: "mint", address: pool, amount0: 99n * E18, amount1: 99n * E6 },
    ]);
    const rows = m.transform();
    expect(rows.transfers.filter((t) => t.token === token).map((t) => t.kind)).toEqual(["fee", "lp_add"]);
    const fold = new PositionFold(m.state, rows);
    Object.assign(fold.books.position(creator, token), { quantity: 100n * E18, costBasisUsd: 100 });
    fold.run();
    const p = fold.books.position(creator, token);
    expect(p.realizedPnlUsd).toBeCloseTo(-1, 9);
    expect(p.liquidityCostUsd).toBeCloseTo(99 + 99, 9);
    expect(fold.books.stake(creator, pool, token)).toMatchObject({ units: shares, costUsd: 198 });
  });

  it("books a V3 launch's single-sided position at no cost, and what its Collect pays as proceeds", () => {
    const m = liquidityMarket("uniswap-v3");
    const { E18, E6, usd, token, pool, creator, trader, launchpad, zero, tx, transfer, sqrtPrice } = m;
    const ticks = { owner: "0xnpm", tickLower: 10, tickUpper: 887_200 };
    const liquidity = 7n * 10n ** 20n;
    // The launchpad mints the supply and puts all of it in the pool above the price, for the creator (the sender).
    tx("0xa", creator, [
      transfer(token, zero, launchpad, 1_000n * E18),
      { kind: "initialize", address: pool, sqrtPriceX96: sqrtPrice(1), tick: 0 },
      transfer(token, launchpad, pool, 1_000n * E18),
      { kind: "mintV3", address: pool, ...ticks, liquidity, amount0: 1_000n * E18, amount1: 0n },
    ]);
    // A trader buys 400 tokens for 500 dollars: the price is 2 dollars after.
    const swap = { amount0: -400n * E18, amount1: 500n * E6, sqrtPriceX96: sqrtPrice(2), liquidity, tick: 100 };
    tx("0xb", trader, [
      transfer(token, pool, trader, 400n * E18),
      transfer(usd, trader, pool, 500n * E6),
      { kind: "swapV3", address: pool, ...swap, recipient: trader },
    ]);
    // The creator takes all of it out: the Burn leaves it owed, the Collect pays 600 tokens and 500 dollars.
    tx("0xc", creator, [
      { kind: "burnV3", address: pool, ...ticks, liquidity, amount0: 600n * E18, amount1: 500n * E6 },
      transfer(token, pool, creator, 600n * E18),
      transfer(usd, pool, creator, 500n * E6),
      { kind: "collectV3", address: pool, amount0: 600n * E18, amount1: 500n * E6 },
    ]);
    const { rows, books } = m.books();
    expect(rows.liquidity.map((c) => [c.direction, c.units, Math.round(c.quoteUsd * 1e6) / 1e6])).toEqual([
      ["add", liquidity, 0],
      ["remove", liquidity, 0],
      ["remove", 0n, 500],
    ]);
    const p = books.position(creator, token);
    expect(p.quantity).toBe(600n * E18);
    // 600 tokens at 2 dollars and 500 dollars, for liquidity that cost it nothing.
    expect(p.costBasisUsd).toBeCloseTo(1_200, 6);
    expect(p.realizedPnlUsd).toBeCloseTo(1_700, 6);
    expect(m.pnl(p, 0)).toBeCloseTo(500, 6);
    expect(books.stake(creator, pool, token)).toMatchObject({ units: 0n, costUsd: 0 });
  });
});
