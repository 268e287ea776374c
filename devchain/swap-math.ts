/** Uniswap V2 integer math exactly as UniswapV2Pair and UniswapV2Router02 compute it. */
import type { Address } from "viem";

export const MINIMUM_LIQUIDITY = 1000n;

/** Pair token order: addresses compared as numbers (same-length lowercase hex compares alike). */
export function sortTokens(a: Address, b: Address): [Address, Address] {
  return a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a];
}

export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) throw new Error("getAmountOut: empty input or pool");
  const withFee = amountIn * 997n;
  return (withFee * reserveOut) / (reserveIn * 1000n + withFee);
}

/** The Babylonian square root of UniswapV2Pair (Math.sqrt, floor). */
export function sqrt(y: bigint): bigint {
  if (y > 3n) {
    let z = y;
    let x = y / 2n + 1n;
    while (x < z) {
      z = x;
      x = (y / x + x) / 2n;
    }
    return z;
  }
  return y === 0n ? 0n : 1n;
}

/** LP shares minted for amounts added to a pair (the first mint also locks MINIMUM_LIQUIDITY). */
export function liquidityMinted(
  amount0: bigint,
  amount1: bigint,
  reserve0: bigint,
  reserve1: bigint,
  supply: bigint,
): bigint {
  if (supply === 0n) return sqrt(amount0 * amount1) - MINIMUM_LIQUIDITY;
  const a = (amount0 * supply) / reserve0;
  const b = (amount1 * supply) / reserve1;
  return a < b ? a : b;
}

/** The router's addLiquidity: desired amounts trimmed to the pool ratio. */
export function liquidityAmounts(
  desiredA: bigint,
  desiredB: bigint,
  reserveA: bigint,
  reserveB: bigint,
): [bigint, bigint] {
  if (reserveA === 0n && reserveB === 0n) return [desiredA, desiredB];
  const optimalB = (desiredA * reserveB) / reserveA;
  if (optimalB <= desiredB) return [desiredA, optimalB];
  return [(desiredB * reserveA) / reserveB, desiredB];
}

/** Input needed to buy exactly `amountOut` (Uniswap V2's getAmountIn, rounded up). */
export function getAmountIn(amountOut: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  if (amountOut <= 0n || amountOut >= reserveOut) throw new Error("getAmountIn: output out of range");
  return (reserveIn * amountOut * 1000n) / ((reserveOut - amountOut) * 997n) + 1n;
}
