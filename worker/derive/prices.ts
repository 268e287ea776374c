import type { ChainState, PoolState } from "../indexer/state";

/**
 * USD pricing: stablecoins at 1; WETH from the WETH/stable pools weighted
 * by their stablecoin side; a token from its deepest whitelisted pool (quoted in WETH or a stable;
 * a V2 pair's reserve ratio, a V3 pool's sqrtPriceX96), and only when that pool holds at least the
 * profile's minimum of quote liquidity (its quote token balance: the same dust rule on both
 * protocols). Everything reads the pool state of `state` as it stands, so the same rule prices an
 * event at its log and a token at the head.
 */

export const units = (raw: bigint, decimals: number) => Number(raw) / 10 ** decimals;

/**
 * The largest USD figure the indexer stores, about a thousand times the world's yearly output:
 * anything above it comes from absurd amounts (a 2^256-1 transfer) or dust prices, and is held
 * there so sums and products of figures stay finite.
 */
export const MAX_USD = 1e18;

/** A USD figure as stored: NaN as 0, clamped to ±MAX_USD (never NaN or Infinity in a row or a response). */
export function usd(x: number): number {
  if (Number.isNaN(x)) return 0;
  return x > MAX_USD ? MAX_USD : x < -MAX_USD ? -MAX_USD : x;
}

const reserveOf = (p: PoolState, token: string) => (p.token0 === token ? p.reserve0 : p.reserve1);
const otherSide = (p: PoolState, token: string) => (p.token0 === token ? p.token1 : p.token0);

/**
 * Units of the other side one unit of `token` is worth in pool `p`: a V2 pair's reserve ratio, a
 * V3 pool's sqrtPriceX96 squared (raw token1 per raw token0) scaled by both tokens' decimals.
 */
export function poolPrice(state: ChainState, p: PoolState, token: string): number {
  const other = otherSide(p, token);
  if (p.protocol === "uniswap-v3") {
    const sqrt = Number(p.sqrtPriceX96) / 2 ** 96;
    const price0 = sqrt * sqrt * 10 ** (state.decimalsOf(p.token0) - state.decimalsOf(p.token1));
    if (!(price0 > 0) || !Number.isFinite(price0)) return 0;
    return p.token0 === token ? price0 : 1 / price0;
  }
  const mine = units(reserveOf(p, token), state.decimalsOf(token));
  return mine > 0 ? units(reserveOf(p, other), state.decimalsOf(other)) / mine : 0;
}

/** WETH in USD over the WETH/stablecoin pools, each weighing with its stablecoin side. */
export function wethUsd(state: ChainState): number {
  const weth = state.profile.weth;
  let dollars = 0;
  let eth = 0;
  for (const p of state.wethStablePools) {
    const stable = otherSide(p, weth);
    const side = units(reserveOf(p, stable), state.decimalsOf(stable));
    const price = poolPrice(state, p, weth);
    if (side <= 0 || price <= 0) continue;
    dollars += side;
    eth += side / price;
  }
  return eth > 0 ? usd(dollars / eth) : 0;
}

/** USD per unit of a whitelisted quote token (0 for anything else). */
export function quoteUsd(state: ChainState, quote: string): number {
  if (state.stables.has(quote)) return 1;
  return quote === state.profile.weth ? wethUsd(state) : 0;
}

/** USD on the quote side of a token's whitelisted pool. */
function quoteLiquidityUsd(state: ChainState, p: PoolState, token: string): number {
  const quote = otherSide(p, token);
  return usd(units(reserveOf(p, quote), state.decimalsOf(quote)) * quoteUsd(state, quote));
}

export type TokenPrice = { priceUsd: number; pool: string | null; liquidityUsd: number };

/** The token's price from its deepest whitelisted pair, and its liquidity over all of them. */
export function tokenPrice(state: ChainState, token: string): TokenPrice {
  let best: PoolState | null = null;
  let bestUsd = 0;
  let liquidityUsd = 0;
  for (const p of state.poolsByToken.get(token) ?? []) {
    if (!state.isQuote(otherSide(p, token))) continue;
    const quoteSide = quoteLiquidityUsd(state, p, token);
    liquidityUsd = usd(liquidityUsd + poolLiquidityUsd(state, p));
    if (quoteSide > bestUsd || (quoteSide === bestUsd && best && p.address < best.address))
      [best, bestUsd] = [p, quoteSide];
  }
  if (!best || bestUsd < state.profile.minQuoteLiquidityUsd) return { priceUsd: 0, pool: null, liquidityUsd };
  return {
    priceUsd: usd(poolPrice(state, best, token) * quoteUsd(state, otherSide(best, token))),
    pool: best.address,
    liquidityUsd,
  };
}

/** USD per unit of any token: quotes by their rule, indexed tokens by their pair, else 0. */
export function usdPerUnit(state: ChainState, address: string): number {
  return state.isQuote(address) ? quoteUsd(state, address) : tokenPrice(state, address).priceUsd;
}

/** USD value of a raw amount of a token at the current reserves. */
export const valueUsd = (state: ChainState, token: string, raw: bigint) =>
  raw === 0n ? 0 : usd(units(raw, state.decimalsOf(token)) * usdPerUnit(state, token));

/**
 * A pool's own USD price of its token (the side that is not a quote token): its current marginal
 * price (poolPrice: a V2 pair's reserve ratio, a V3 pool's sqrtPriceX96) times the quote's USD.
 * Null when no side or both sides are quote tokens, or the pool has no price yet.
 */
export function poolPriceUsd(state: ChainState, p: PoolState): number | null {
  const q0 = state.isQuote(p.token0);
  if (q0 === state.isQuote(p.token1)) return null;
  const token = q0 ? p.token1 : p.token0;
  const price = usd(poolPrice(state, p, token) * quoteUsd(state, otherSide(p, token)));
  return price > 0 ? price : null;
}

/** Liquidity of one pool in USD: both sides when both are whitelisted, else twice the quote side. */
export function poolLiquidityUsd(state: ChainState, p: PoolState): number {
  const q0 = state.isQuote(p.token0);
  const q1 = state.isQuote(p.token1);
  if (q0 && q1) return usd(valueUsd(state, p.token0, p.reserve0) + valueUsd(state, p.token1, p.reserve1));
  if (q0) return usd(2 * valueUsd(state, p.token0, p.reserve0));
  if (q1) return usd(2 * valueUsd(state, p.token1, p.reserve1));
  return 0;
}
