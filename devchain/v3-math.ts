/**
 * Uniswap V3 integer math exactly as UniswapV3Pool and its libraries compute it (TickMath,
 * SqrtPriceMath, SwapMath, TickBitmap, Tick, Position; uint256 wrap-around where Solidity 0.7 has
 * it), and a pool mirror that swaps, mints and burns as the pool does. The simulator computes every
 * V3 transaction on this mirror before sending it, as it does for V2 with swap-math.ts.
 */

export const MIN_TICK = -887272;
export const MAX_TICK = 887272;
export const MIN_SQRT_RATIO = 4295128739n;
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;
export const Q96 = 1n << 96n;
const Q128 = 1n << 128n;
const U256 = 1n << 256n;
const MAX_U256 = U256 - 1n;

/** Tick spacing of each standard fee tier (pips). */
export const TICK_SPACING: Record<number, number> = { 100: 1, 500: 10, 3000: 60, 10000: 200 };

const mulDiv = (a: bigint, b: bigint, d: bigint) => (a * b) / d;
const mulDivUp = (a: bigint, b: bigint, d: bigint) => {
  const q = (a * b) / d;
  return (a * b) % d === 0n ? q : q + 1n;
};
const divUp = (a: bigint, b: bigint) => a / b + (a % b === 0n ? 0n : 1n);
/** uint256 subtraction as Solidity 0.7 does it: modulo 2^256. */
const sub256 = (a: bigint, b: bigint) => (((a - b) % U256) + U256) % U256;

const TICK_FACTORS = [
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
];

export function sqrtRatioAtTick(tick: number): bigint {
  const abs = Math.abs(tick);
  if (abs > MAX_TICK) throw new Error(`tick ${tick} out of range`);
  let ratio = abs & 1 ? 0xfffcb933bd6fad37aa2d162d1a594001n : 0x100000000000000000000000000000000n;
  for (let i = 0; i < TICK_FACTORS.length; i++) if (abs & (2 << i)) ratio = (ratio * TICK_FACTORS[i]) >> 128n;
  if (tick > 0) ratio = MAX_U256 / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

/** The greatest tick whose sqrt ratio is at most `sqrtPriceX96` (what getTickAtSqrtRatio returns). */
export function tickAtSqrtRatio(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) throw new Error("sqrt price out of range");
  let lo = MIN_TICK;
  let hi = MAX_TICK;
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    if (sqrtRatioAtTick(mid) <= sqrtPriceX96) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function amount0Delta(a: bigint, b: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const n1 = liquidity << 96n;
  return roundUp ? divUp(mulDivUp(n1, hi - lo, hi), lo) : mulDiv(n1, hi - lo, hi) / lo;
}

export function amount1Delta(a: bigint, b: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  return roundUp ? mulDivUp(liquidity, hi - lo, Q96) : mulDiv(liquidity, hi - lo, Q96);
}

function nextSqrtPriceFromInput(sqrtP: bigint, liquidity: bigint, amountIn: bigint, zeroForOne: boolean): bigint {
  if (zeroForOne) {
    if (amountIn === 0n) return sqrtP;
    const n1 = liquidity << 96n;
    const product = amountIn * sqrtP;
    // The pool takes the precise formula unless amount * price overflows 256 bits.
    if (product < U256 && n1 + product < U256) return mulDivUp(n1, sqrtP, n1 + product);
    return divUp(n1, n1 / sqrtP + amountIn);
  }
  const quotient = amountIn < 1n << 160n ? (amountIn << 96n) / liquidity : mulDiv(amountIn, Q96, liquidity);
  return sqrtP + quotient;
}

/** SwapMath.computeSwapStep for an exact input. */
function swapStep(current: bigint, target: bigint, liquidity: bigint, remaining: bigint, fee: number) {
  const zeroForOne = current >= target;
  const feePips = BigInt(fee);
  const lessFee = mulDiv(remaining, 1_000_000n - feePips, 1_000_000n);
  let amountIn = zeroForOne
    ? amount0Delta(target, current, liquidity, true)
    : amount1Delta(current, target, liquidity, true);
  const next = lessFee >= amountIn ? target : nextSqrtPriceFromInput(current, liquidity, lessFee, zeroForOne);
  const max = next === target;
  if (!max)
    amountIn = zeroForOne ? amount0Delta(next, current, liquidity, true) : amount1Delta(current, next, liquidity, true);
  const amountOut = zeroForOne
    ? amount1Delta(next, current, liquidity, false)
    : amount0Delta(current, next, liquidity, false);
  const feeAmount = !max ? remaining - amountIn : mulDivUp(amountIn, feePips, 1_000_000n - feePips);
  return { next, amountIn, amountOut, feeAmount };
}

interface TickInfo {
  liquidityGross: bigint;
  liquidityNet: bigint;
  outside0: bigint;
  outside1: bigint;
}

interface PositionInfo {
  liquidity: bigint;
  inside0Last: bigint;
  inside1Last: bigint;
  owed0: bigint;
  owed1: bigint;
}

export interface SwapResult {
  amountIn: bigint;
  amountOut: bigint;
  /** Whether the whole input was used (false: the price hit the limit first). */
  filled: boolean;
  commit(): void;
}

/** One pool's state, as the pool keeps it: price, tick, active liquidity, fee growth, ticks and
 * positions (keyed by owner and range). */
export class V3PoolMirror {
  sqrtPriceX96 = 0n;
  tick = 0;
  liquidity = 0n;
  feeGrowth0 = 0n;
  feeGrowth1 = 0n;
  private readonly ticks = new Map<number, TickInfo>();
  private readonly positions = new Map<string, PositionInfo>();
  readonly spacing: number;

  constructor(readonly fee: number) {
    const spacing = TICK_SPACING[fee];
    if (!spacing) throw new Error(`v3: no tick spacing for fee ${fee}`);
    this.spacing = spacing;
  }

  initialize(sqrtPriceX96: bigint): void {
    this.sqrtPriceX96 = sqrtPriceX96;
    this.tick = tickAtSqrtRatio(sqrtPriceX96);
  }

  /** Amounts the pool takes for adding `liquidity` to a range (rounded up). */
  amountsForLiquidity(tickLower: number, tickUpper: number, liquidity: bigint, roundUp: boolean): [bigint, bigint] {
    const [a, b] = [sqrtRatioAtTick(tickLower), sqrtRatioAtTick(tickUpper)];
    if (this.tick < tickLower) return [amount0Delta(a, b, liquidity, roundUp), 0n];
    if (this.tick < tickUpper)
      return [
        amount0Delta(this.sqrtPriceX96, b, liquidity, roundUp),
        amount1Delta(a, this.sqrtPriceX96, liquidity, roundUp),
      ];
    return [0n, amount1Delta(a, b, liquidity, roundUp)];
  }

  /** LiquidityAmounts.getLiquidityForAmounts: what NonfungiblePositionManager mints for the amounts. */
  liquidityForAmounts(tickLower: number, tickUpper: number, amount0: bigint, amount1: bigint): bigint {
    const [a, b] = [sqrtRatioAtTick(tickLower), sqrtRatioAtTick(tickUpper)];
    const for0 = (lo: bigint, hi: bigint) => mulDiv(amount0, mulDiv(lo, hi, Q96), hi - lo);
    const for1 = (lo: bigint, hi: bigint) => mulDiv(amount1, Q96, hi - lo);
    if (this.sqrtPriceX96 <= a) return for0(a, b);
    if (this.sqrtPriceX96 < b) {
      const l0 = for0(this.sqrtPriceX96, b);
      const l1 = for1(a, this.sqrtPriceX96);
      return l0 < l1 ? l0 : l1;
    }
    return for1(a, b);
  }

  position(owner: string, tickLower: number, tickUpper: number): PositionInfo {
    const key = `${owner}:${tickLower}:${tickUpper}`;
    let p = this.positions.get(key);
    if (!p) this.positions.set(key, (p = { liquidity: 0n, inside0Last: 0n, inside1Last: 0n, owed0: 0n, owed1: 0n }));
    return p;
  }

  /** pool.mint (delta > 0) or pool.burn (delta < 0, 0 to poke): returns the amounts in (mint, rounded
   * up) or owed (burn, rounded down). */
  modifyPosition(owner: string, tickLower: number, tickUpper: number, delta: bigint): [bigint, bigint] {
    if (delta !== 0n) {
      this.updateTick(tickLower, delta, false);
      this.updateTick(tickUpper, delta, true);
    }
    const [inside0, inside1] = this.feeGrowthInside(tickLower, tickUpper);
    const p = this.position(owner, tickLower, tickUpper);
    if (delta === 0n && p.liquidity === 0n) throw new Error("v3: poke of an empty position (NP)");
    p.owed0 += mulDiv(sub256(inside0, p.inside0Last), p.liquidity, Q128) % (1n << 128n);
    p.owed1 += mulDiv(sub256(inside1, p.inside1Last), p.liquidity, Q128) % (1n << 128n);
    p.inside0Last = inside0;
    p.inside1Last = inside1;
    p.liquidity += delta;
    if (p.liquidity < 0n) throw new Error("v3: burning more liquidity than the position has");
    if (delta < 0n) {
      this.clearTickIfEmpty(tickLower);
      this.clearTickIfEmpty(tickUpper);
    }
    if (this.tick >= tickLower && this.tick < tickUpper) this.liquidity += delta;
    const [amount0, amount1] = this.amountsForLiquidity(tickLower, tickUpper, delta < 0n ? -delta : delta, delta > 0n);
    if (delta < 0n) {
      p.owed0 += amount0;
      p.owed1 += amount1;
    }
    return [amount0, amount1];
  }

  /** pool.collect: pays out at most the requested amounts of what the position is owed. */
  collect(owner: string, tickLower: number, tickUpper: number, max0: bigint, max1: bigint): [bigint, bigint] {
    const p = this.position(owner, tickLower, tickUpper);
    const amount0 = max0 > p.owed0 ? p.owed0 : max0;
    const amount1 = max1 > p.owed1 ? p.owed1 : max1;
    p.owed0 -= amount0;
    p.owed1 -= amount1;
    return [amount0, amount1];
  }

  /** Fee growth inside a range now (Tick.getFeeGrowthInside). */
  feeGrowthInside(tickLower: number, tickUpper: number): [bigint, bigint] {
    const lower = this.ticks.get(tickLower) ?? emptyTick();
    const upper = this.ticks.get(tickUpper) ?? emptyTick();
    const inside = (global: bigint, lowerOut: bigint, upperOut: bigint) => {
      const below = this.tick >= tickLower ? lowerOut : sub256(global, lowerOut);
      const above = this.tick < tickUpper ? upperOut : sub256(global, upperOut);
      return sub256(sub256(global, below), above);
    };
    return [
      inside(this.feeGrowth0, lower.outside0, upper.outside0),
      inside(this.feeGrowth1, lower.outside1, upper.outside1),
    ];
  }

  /** An exact-input swap down to the extreme price (SwapRouter's limit when none is given); state
   * changes only on commit(). */
  swap(zeroForOne: boolean, amountIn: bigint): SwapResult {
    const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
    let { sqrtPriceX96: price, tick, liquidity } = this;
    let feeGrowth = zeroForOne ? this.feeGrowth0 : this.feeGrowth1;
    let remaining = amountIn;
    let out = 0n;
    const crossed: [number, bigint][] = [];
    while (remaining !== 0n && price !== limit) {
      const start = price;
      let [tickNext, initialized] = this.nextInitializedTick(tick, zeroForOne);
      tickNext = Math.min(Math.max(tickNext, MIN_TICK), MAX_TICK);
      const priceNext = sqrtRatioAtTick(tickNext);
      const target = (zeroForOne ? priceNext < limit : priceNext > limit) ? limit : priceNext;
      const step = swapStep(price, target, liquidity, remaining, this.fee);
      price = step.next;
      remaining -= step.amountIn + step.feeAmount;
      out += step.amountOut;
      if (liquidity > 0n) feeGrowth = (feeGrowth + mulDiv(step.feeAmount, Q128, liquidity)) % U256;
      if (price === priceNext) {
        if (initialized) {
          crossed.push([tickNext, feeGrowth]);
          const net = this.ticks.get(tickNext)!.liquidityNet;
          liquidity += zeroForOne ? -net : net;
        }
        tick = zeroForOne ? tickNext - 1 : tickNext;
      } else if (price !== start) {
        tick = tickAtSqrtRatio(price);
      }
    }
    return {
      amountIn: amountIn - remaining,
      amountOut: out,
      filled: remaining === 0n,
      commit: () => {
        for (const [t, growth] of crossed) {
          const info = this.ticks.get(t)!;
          const [g0, g1] = zeroForOne ? [growth, this.feeGrowth1] : [this.feeGrowth0, growth];
          info.outside0 = sub256(g0, info.outside0);
          info.outside1 = sub256(g1, info.outside1);
        }
        Object.assign(this, { sqrtPriceX96: price, tick, liquidity });
        if (zeroForOne) this.feeGrowth0 = feeGrowth;
        else this.feeGrowth1 = feeGrowth;
      },
    };
  }

  private updateTick(t: number, delta: bigint, upper: boolean): void {
    let info = this.ticks.get(t);
    if (!info) {
      // A tick at or below the current one starts with all growth so far counted outside it.
      const below = t <= this.tick;
      info = {
        liquidityGross: 0n,
        liquidityNet: 0n,
        outside0: below ? this.feeGrowth0 : 0n,
        outside1: below ? this.feeGrowth1 : 0n,
      };
      this.ticks.set(t, info);
    }
    info.liquidityGross += delta;
    info.liquidityNet += upper ? -delta : delta;
  }

  private clearTickIfEmpty(t: number): void {
    if (this.ticks.get(t)?.liquidityGross === 0n) this.ticks.delete(t);
  }

  /** TickBitmap.nextInitializedTickWithinOneWord over the ticks with liquidity. */
  private nextInitializedTick(tick: number, lte: boolean): [number, boolean] {
    const s = this.spacing;
    const compressed = Math.floor(tick / s);
    const initialized = [...this.ticks.keys()].map((t) => t / s);
    if (lte) {
      const bitPos = ((compressed % 256) + 256) % 256;
      const wordStart = compressed - bitPos;
      const found = initialized.filter((c) => c <= compressed && c >= wordStart);
      return found.length > 0 ? [Math.max(...found) * s, true] : [wordStart * s, false];
    }
    const from = compressed + 1;
    const bitPos = ((from % 256) + 256) % 256;
    const wordEnd = from + (255 - bitPos);
    const found = initialized.filter((c) => c >= from && c <= wordEnd);
    return found.length > 0 ? [Math.min(...found) * s, true] : [wordEnd * s, false];
  }
}

function emptyTick(): TickInfo {
  return { liquidityGross: 0n, liquidityNet: 0n, outside0: 0n, outside1: 0n };
}
