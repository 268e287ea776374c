import type { ChainLog, LogRef } from "./decode";
import type { PoolState } from "./state";

/** A decoded log without its chain position: what a pool's state needs of it. */
export type LogFields = ChainLog extends infer L ? (L extends unknown ? Omit<L, keyof LogRef> : never) : never;

/**
 * A V3 pool log applied to the pool's state: its balances (what the pool received, signed), its
 * price and active liquidity. Returns the pool-side amounts the log moved, or null for a log
 * that is not a V3 pool's. The Ponder peer (bench/peers/ponder) folds its pools with it too, so
 * both sides value V3 events by the same state.
 */
export function applyV3(p: PoolState, l: LogFields): { amount0: bigint; amount1: bigint } | null {
  const inRange = (lower: number, upper: number) => p.tick >= lower && p.tick < upper;
  switch (l.kind) {
    case "initialize":
      [p.sqrtPriceX96, p.tick] = [l.sqrtPriceX96, l.tick];
      return { amount0: 0n, amount1: 0n };
    case "swapV3":
      p.reserve0 += l.amount0;
      p.reserve1 += l.amount1;
      [p.sqrtPriceX96, p.liquidity, p.tick] = [l.sqrtPriceX96, l.liquidity, l.tick];
      return { amount0: l.amount0, amount1: l.amount1 };
    case "mintV3":
      p.reserve0 += l.amount0;
      p.reserve1 += l.amount1;
      if (inRange(l.tickLower, l.tickUpper)) p.liquidity += l.liquidity;
      return { amount0: l.amount0, amount1: l.amount1 };
    case "burnV3":
      // The tokens stay in the pool, owed to the position, until its Collect.
      if (inRange(l.tickLower, l.tickUpper)) p.liquidity -= l.liquidity;
      return { amount0: -l.amount0, amount1: -l.amount1 };
    case "collectV3":
      p.reserve0 -= l.amount0;
      p.reserve1 -= l.amount1;
      return { amount0: -l.amount0, amount1: -l.amount1 };
    case "flash":
      p.reserve0 += l.paid0;
      p.reserve1 += l.paid1;
      return { amount0: l.paid0, amount1: l.paid1 };
    default:
      return null;
  }
}

/** The action a pool log is, for its transaction's token legs; null for logs that move no tokens of a trader. */
export function actionOf(l: LogFields): "swap" | "mint" | "burn" | "collect" | null {
  switch (l.kind) {
    case "swap":
    case "swapV3":
      return "swap";
    case "mint":
    case "mintV3":
      return "mint";
    case "burn":
      return "burn";
    case "burnV3":
      return l.liquidity > 0n ? "burn" : null;
    case "collectV3":
      return "collect";
    default:
      return null;
  }
}
