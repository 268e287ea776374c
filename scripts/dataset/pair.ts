/** A Uniswap-V2 constant-product pair of a token against WETH, in exact integer arithmetic. */

const MINIMUM_LIQUIDITY = 1000n;
const WAD = 10n ** 18n;

export const toWei = (eth: number) => BigInt(Math.max(1, Math.round(eth * 1e9))) * 10n ** 9n;
export const fromWei = (wei: bigint) => Number(wei) / 1e18;

/** Integer square root by Newton's method, started above the root so it descends to it. */
function sqrt(x: bigint): bigint {
  if (x < 2n) return x;
  let r = BigInt(Math.ceil(Math.sqrt(Number(x)) * 1.000001)) + 1n;
  for (let next = (r + x / r) >> 1n; next < r; next = (r + x / r) >> 1n) r = next;
  return r;
}

/** Output of a swap with the 0.3% fee (UniswapV2Library.getAmountOut). */
const amountOut = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint) => (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n);

export class Pair {
  reserveToken = 0n;
  reserveWeth = 0n;
  lpSupply = 0n;

  /** Token price in WETH (both sides have 18 decimals). */
  priceWeth(): number {
    return this.reserveToken === 0n ? 0 : Number((this.reserveWeth * WAD) / this.reserveToken) / 1e18;
  }

  /** Tokens out for WETH in. */
  buy(wethIn: bigint): bigint {
    const out = amountOut(wethIn, this.reserveWeth, this.reserveToken);
    this.reserveWeth += wethIn;
    this.reserveToken -= out;
    return out;
  }

  /** WETH out for tokens in. */
  sell(tokenIn: bigint): bigint {
    const out = amountOut(tokenIn, this.reserveToken, this.reserveWeth);
    this.reserveToken += tokenIn;
    this.reserveWeth -= out;
    return out;
  }

  /**
   * Deposits both sides at the current ratio (all of `token`, the matching WETH); returns the LP
   * minted and the WETH used. The first deposit locks MINIMUM_LIQUIDITY, as the real pair does.
   */
  add(token: bigint, weth?: bigint): { lp: bigint; weth: bigint } {
    if (this.lpSupply === 0n) {
      if (weth === undefined) throw new Error("the first deposit needs both amounts");
      const lp = sqrt(token * weth) - MINIMUM_LIQUIDITY;
      this.reserveToken = token;
      this.reserveWeth = weth;
      this.lpSupply = lp + MINIMUM_LIQUIDITY;
      return { lp, weth };
    }
    const wethIn = (token * this.reserveWeth) / this.reserveToken + 1n;
    const lp = (token * this.lpSupply) / this.reserveToken;
    this.reserveToken += token;
    this.reserveWeth += wethIn;
    this.lpSupply += lp;
    return { lp, weth: wethIn };
  }

  remove(lp: bigint): { token: bigint; weth: bigint } {
    const token = (lp * this.reserveToken) / this.lpSupply;
    const weth = (lp * this.reserveWeth) / this.lpSupply;
    this.reserveToken -= token;
    this.reserveWeth -= weth;
    this.lpSupply -= lp;
    return { token, weth };
  }
}
