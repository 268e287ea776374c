/**
 * Every on-chain action of the simulation: computes its outcome on the ledger exactly as the
 * contracts will, queues the transaction, and counts the logs it will emit. Actions that would
 * revert on chain throw here instead (a simulator bug), and actions that would achieve nothing
 * (a zero output) are skipped by returning 0n.
 */
import {
  type Abi,
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  keccak256,
} from "viem";
import type { Artifacts } from "../compile";
import { type LaunchpadInfo, pairAddress, type QuirkToken } from "../deploy";
import { lower, MAX_UINT256, NO_DEADLINE, toQuantity } from "../encoding";
import { getAmountOut, liquidityAmounts, liquidityMinted, MINIMUM_LIQUIDITY, sortTokens, sqrt } from "../swap-math";
import { MAX_TICK, Q96, sqrtRatioAtTick, tickAtSqrtRatio, V3PoolMirror } from "../v3-math";
import type { ChainWriter } from "./chain-writer";
import { type Ledger, type PairInfo, ZERO_ADDRESS } from "./ledger";

export const LOG_NAMES = [
  "Transfer",
  "Approval",
  "Swap",
  "Mint",
  "Burn",
  "Sync",
  "Deposit",
  "Withdrawal",
  "PairCreated",
  "TokenLaunched",
  // Uniswap V3 and its launchpad: the pool's Swap, Mint, Burn and Collect have their own signatures.
  "PoolCreated",
  "Initialize",
  "SwapV3",
  "MintV3",
  "BurnV3",
  "CollectV3",
  "IncreaseLiquidity",
  "DecreaseLiquidity",
  "Collect",
  "TokenCreated",
  "Locked",
  "Released",
] as const;
export type LogName = (typeof LOG_NAMES)[number];

const GAS = { transfer: 100_000n, trade: 500_000n, launch: 8_000_000n } as const;

/** The deployed contracts the market trades on (addresses lowercase). */
export interface Contracts {
  chainId: number;
  deployer: Address;
  weth: Address;
  /** The 6-decimals dollar stablecoin. */
  usd: Address;
  /** Uniswap V2. */
  factory: Address;
  router: Address;
  launchpads: LaunchpadInfo[];
  wethUsdPair: Address;
  /** Uniswap V3 and the V3 launchpad (absent: no V3 launches). */
  v3?: { factory: Address; positionManager: Address; swapRouter: Address; launchpad: LaunchpadInfo; locker: Address };
  /** The deployment's quirk tokens, each with the quote token of its V2 pair (deploy.ts). */
  quirks: { address: Address; quirk: QuirkToken["quirk"]; quote: Address }[];
}

/** A V3 launch's pool, its single position (held by the locker) and the mirror of its state. */
export interface V3Pool extends PairInfo {
  fee: number;
  mirror: V3PoolMirror;
  positionId: bigint;
  tickLower: number;
  tickUpper: number;
}

export interface V3LaunchParams {
  name: string;
  symbol: string;
  supply: bigint;
  /** The virtual WETH depth at the start: the pool prices the supply at this much WETH. */
  ethDepth: bigint;
  withdrawable: boolean;
}

const V3_LAUNCH_FEE = 10_000;
const UINT128_MAX = 2n ** 128n - 1n;

/** A launch's supply and first liquidity: `liquiditySupply` tokens against `ethIn` wei. */
export interface PoolSeed {
  supply: bigint;
  liquiditySupply: bigint;
  ethIn: bigint;
}

export interface LaunchParams extends PoolSeed {
  launchpad: Address;
  name: string;
  symbol: string;
}

export class Market {
  readonly logs = Object.fromEntries(LOG_NAMES.map((n) => [n, 0])) as Record<LogName, number>;
  readonly weth: Address;
  readonly usd: Address;
  readonly router: Address;
  private readonly approvals = new Set<string>();
  private readonly launchpadNonces: Map<Address, number>;
  /** Pairs outside transactions created through the factory, as `${token0}:${token1}`. */
  private readonly outsidePairs = new Set<string>();
  /** V3 pools of launched tokens, by token. */
  private readonly v3Pools = new Map<Address, V3Pool>();
  /** The position manager's next token id. */
  nextPositionId = 0n;
  /** Tokens whose V3 position its creator took out of the locker. */
  private readonly released = new Set<Address>();

  constructor(
    readonly ledger: Ledger,
    private readonly writer: ChainWriter,
    private readonly artifacts: Artifacts,
    readonly deployment: Contracts,
    launchpadNonces: Map<Address, number>,
  ) {
    this.weth = deployment.weth;
    this.usd = deployment.usd;
    this.router = deployment.router;
    this.launchpadNonces = launchpadNonces;
  }

  /** Swaps, transfers and liquidity events: what a benchmark counts as indexed events. */
  get events(): number {
    const { Swap, Transfer, Mint, Burn, SwapV3, MintV3, BurnV3 } = this.logs;
    return Swap + Transfer + Mint + Burn + SwapV3 + MintV3 + BurnV3;
  }

  /** Makes the node accept transactions from `wallet` (no signing needed) and gives it ether
   * without a transaction, for actors whose funding source is off-chain (a bridge, say). */
  register(wallet: Address, eth = 0n): void {
    this.writer.call("hardhat_impersonateAccount", [wallet]);
    if (eth > 0n) {
      this.writer.call("hardhat_setBalance", [wallet, toQuantity(eth)]);
      this.ledger.setEth(wallet, eth);
    }
  }

  /** Adopts an account the node already knows, with its current nonce and balance. */
  adopt(wallet: Address, nonce: number, eth: bigint): void {
    this.ledger.setNonce(wallet, nonce);
    this.ledger.setEth(wallet, eth);
  }

  sendEth(from: Address, to: Address, value: bigint): void {
    this.spend(from, value);
    this.ledger.moveEth(from, to, value);
    this.send(from, to, undefined, value, GAS.transfer, `send ${value} wei to ${to}`);
  }

  wrap(who: Address, value: bigint): void {
    this.spend(who, value);
    this.ledger.moveEth(who, this.weth, value);
    this.ledger.mint(this.weth, who, value);
    this.count({ Deposit: 1 });
    this.call(who, this.weth, this.artifacts.WETH9.abi, "deposit", [], value, GAS.transfer);
  }

  unwrap(who: Address, value: bigint): void {
    this.ledger.burn(this.weth, who, value);
    this.ledger.moveEth(this.weth, who, value);
    this.count({ Withdrawal: 1 });
    this.call(who, this.weth, this.artifacts.WETH9.abi, "withdraw", [value], 0n, GAS.transfer);
  }

  transfer(token: Address, from: Address, to: Address, amount: bigint): void {
    // A fee-on-transfer token's cut is a Transfer log of its own.
    this.count({ Transfer: this.ledger.feeOf(token, from, to, amount) ? 2 : 1 });
    this.ledger.transfer(token, from, to, amount);
    this.call(from, token, this.artifacts.LaunchToken.abi, "transfer", [to, amount], 0n, GAS.transfer);
  }

  mintUsd(to: Address, amount: bigint): void {
    this.ledger.mint(this.usd, to, amount);
    this.count({ Transfer: 1 });
    this.call(this.deployment.deployer, this.usd, this.artifacts.USD.abi, "mint", [to, amount], 0n, GAS.transfer);
  }

  /** Output of an exact-input swap of `amountIn` tokenIn for tokenOut on their pair (or V3 pool) now;
   * 0n when the pool cannot take all of it. */
  quote(tokenIn: Address, tokenOut: Address, amountIn: bigint): bigint {
    const pool = this.v3PoolBetween(tokenIn, tokenOut);
    if (pool) return amountIn > 0n ? this.v3Quote(pool, tokenIn, amountIn).amountOut : 0n;
    const [rIn, rOut] = this.ledger.reserves(this.ledger.pairOf(tokenIn, tokenOut), tokenIn);
    return rIn > 0n && rOut > 0n && amountIn > 0n ? getAmountOut(amountIn, rIn, rOut) : 0n;
  }

  /** The depth of the token's WETH market: the pair's WETH, or a V3 pool's virtual WETH reserve
   * (its active liquidity at the current price). */
  wethReserve(token: Address): bigint {
    const pool = this.v3Pools.get(token);
    if (!pool) return this.ledger.balanceOf(this.weth, this.ledger.pairOf(token, this.weth).address);
    const { liquidity, sqrtPriceX96 } = pool.mirror;
    return pool.token0 === this.weth ? (liquidity * Q96) / sqrtPriceX96 : (liquidity * sqrtPriceX96) / Q96;
  }

  /** A V3 pool's price and active liquidity in the mirror, as (sqrtPriceX96, liquidity). */
  v3State(pool: Address): [bigint, bigint] {
    const found = [...this.v3Pools.values()].find((p) => p.address === pool);
    if (!found) throw new Error(`market: unknown V3 pool ${pool}`);
    return [found.mirror.sqrtPriceX96, found.mirror.liquidity];
  }

  /** The V3 pool of a launched token, if it launched on V3. */
  v3PoolOf(token: Address): V3Pool | undefined {
    return this.v3Pools.get(token);
  }

  buyWithEth(trader: Address, token: Address, ethIn: bigint): bigint {
    if (this.v3Pools.has(token)) return this.v3Swap(trader, this.weth, token, ethIn, "eth");
    const pair = this.ledger.pairOf(this.weth, token);
    const out = this.quote(this.weth, token, ethIn);
    if (out === 0n) return 0n;
    this.spend(trader, ethIn);
    this.ledger.moveEth(trader, this.weth, ethIn);
    this.ledger.mint(this.weth, pair.address, ethIn);
    this.ledger.transfer(token, pair.address, trader, out);
    this.count({ Deposit: 1, Transfer: 2, Sync: 1, Swap: 1 });
    this.routerCall(trader, "swapExactETHForTokens", [out, [this.weth, token], trader, NO_DEADLINE], ethIn);
    this.writer.touch(pair.address);
    return out;
  }

  sellForEth(trader: Address, token: Address, amountIn: bigint): bigint {
    if (this.v3Pools.has(token)) return this.v3Swap(trader, token, this.weth, amountIn, "eth");
    const pair = this.ledger.pairOf(token, this.weth);
    const out = this.quote(token, this.weth, amountIn);
    if (out === 0n) return 0n;
    this.approveRouter(trader, token);
    this.ledger.transfer(token, trader, pair.address, amountIn);
    this.ledger.burn(this.weth, pair.address, out);
    this.ledger.moveEth(this.weth, trader, out);
    this.count({ Transfer: 2, Sync: 1, Swap: 1, Withdrawal: 1 });
    this.routerCall(trader, "swapExactTokensForETH", [amountIn, out, [token, this.weth], trader, NO_DEADLINE]);
    this.writer.touch(pair.address);
    return out;
  }

  /** An exact-input ERC-20 swap along `path` (multi-hop allowed); returns the final output. */
  swap(trader: Address, path: Address[], amountIn: bigint): bigint {
    if (path.length === 2 && this.v3PoolBetween(path[0], path[1]))
      return this.v3Swap(trader, path[0], path[1], amountIn, "weth");
    if (path.some((t) => this.v3Pools.has(t))) throw new Error("market: V3 tokens trade in one hop");
    let amount = amountIn;
    for (let i = 0; i < path.length - 1; i++) amount = this.quote(path[i], path[i + 1], amount);
    if (amount === 0n) return 0n;
    this.approveRouter(trader, path[0]);
    let moving = amountIn;
    let from = trader;
    for (let i = 0; i < path.length - 1; i++) {
      const pair = this.ledger.pairOf(path[i], path[i + 1]);
      const out = this.quote(path[i], path[i + 1], moving);
      this.ledger.transfer(path[i], from, pair.address, moving);
      from = pair.address;
      moving = out;
      this.writer.touch(pair.address);
    }
    this.ledger.transfer(path[path.length - 1], from, trader, moving);
    const hops = path.length - 1;
    this.count({ Transfer: 1 + hops, Sync: hops, Swap: hops });
    this.routerCall(trader, "swapExactTokensForTokens", [amountIn, amount, path, trader, NO_DEADLINE]);
    return amount;
  }

  /** Buys a quirk token in its V2 pair with `amountIn` of its quote (ether for WETH) through Router02's
   * fee-supporting swap, whose minimum is what reaches the trader after the token's cut; returns that. */
  buyQuirk(trader: Address, token: Address, quote: Address, amountIn: bigint): bigint {
    const pair = this.ledger.pairOf(quote, token);
    const out = this.quote(quote, token, amountIn);
    if (out === 0n) return 0n;
    const eth = quote === this.weth;
    if (eth) {
      this.spend(trader, amountIn);
      this.ledger.moveEth(trader, this.weth, amountIn);
      this.ledger.mint(this.weth, pair.address, amountIn);
    } else {
      this.approveRouter(trader, quote);
      this.ledger.transfer(quote, trader, pair.address, amountIn);
    }
    const cut = this.ledger.feeOf(token, pair.address, trader, out) ? 1 : 0;
    const received = this.ledger.transfer(token, pair.address, trader, out);
    this.count({ Deposit: eth ? 1 : 0, Transfer: 2 + cut, Sync: 1, Swap: 1 });
    if (eth)
      this.routerCall(
        trader,
        "swapExactETHForTokensSupportingFeeOnTransferTokens",
        [received, [quote, token], trader, NO_DEADLINE],
        amountIn,
      );
    else
      this.routerCall(trader, "swapExactTokensForTokensSupportingFeeOnTransferTokens", [
        amountIn,
        received,
        [quote, token],
        trader,
        NO_DEADLINE,
      ]);
    this.writer.touch(pair.address);
    return received;
  }

  /** Sells `amountIn` of a quirk token in its V2 pair for its quote (ether for WETH) through Router02's
   * fee-supporting swap: the pair prices what reached it after the token's cut. Returns the quote received. */
  sellQuirk(trader: Address, token: Address, quote: Address, amountIn: bigint): bigint {
    const pair = this.ledger.pairOf(token, quote);
    const [reserveIn, reserveOut] = this.ledger.reserves(pair, token);
    const fee = this.ledger.feeOf(token, trader, pair.address, amountIn);
    const arrives = amountIn - (fee?.cut ?? 0n);
    const out = arrives > 0n ? getAmountOut(arrives, reserveIn, reserveOut) : 0n;
    if (out === 0n) return 0n;
    this.approveRouter(trader, token);
    this.ledger.transfer(token, trader, pair.address, amountIn);
    const eth = quote === this.weth;
    if (eth) {
      this.ledger.burn(this.weth, pair.address, out);
      this.ledger.moveEth(this.weth, trader, out);
    } else {
      this.ledger.transfer(quote, pair.address, trader, out);
    }
    this.count({ Transfer: 2 + (fee ? 1 : 0), Sync: 1, Swap: 1, Withdrawal: eth ? 1 : 0 });
    const fn = eth
      ? "swapExactTokensForETHSupportingFeeOnTransferTokens"
      : "swapExactTokensForTokensSupportingFeeOnTransferTokens";
    this.routerCall(trader, fn, [amountIn, out, [token, quote], trader, NO_DEADLINE]);
    this.writer.touch(pair.address);
    return out;
  }

  addLiquidity(owner: Address, tokenA: Address, tokenB: Address, desiredA: bigint, desiredB: bigint): bigint {
    const pair = this.ledger.pairOf(tokenA, tokenB);
    const [reserveA, reserveB] = this.ledger.reserves(pair, tokenA);
    const [amountA, amountB] = liquidityAmounts(desiredA, desiredB, reserveA, reserveB);
    const [amount0, amount1, reserve0, reserve1] =
      tokenA === pair.token0 ? [amountA, amountB, reserveA, reserveB] : [amountB, amountA, reserveB, reserveA];
    const liquidity = liquidityMinted(amount0, amount1, reserve0, reserve1, this.ledger.supplyOf(pair.address));
    if (liquidity <= 0n) return 0n;
    this.approveRouter(owner, tokenA);
    this.approveRouter(owner, tokenB);
    this.ledger.transfer(tokenA, owner, pair.address, amountA);
    this.ledger.transfer(tokenB, owner, pair.address, amountB);
    this.ledger.mint(pair.address, owner, liquidity);
    this.count({ Transfer: 3, Sync: 1, Mint: 1 });
    this.routerCall(owner, "addLiquidity", [tokenA, tokenB, desiredA, desiredB, amountA, amountB, owner, NO_DEADLINE]);
    this.writer.touch(pair.address);
    return liquidity;
  }

  /** Burns `liquidity` LP shares of the pair; returns the amounts paid out as (tokenA, tokenB). */
  removeLiquidity(owner: Address, tokenA: Address, tokenB: Address, liquidity: bigint): [bigint, bigint] {
    const pair = this.ledger.pairOf(tokenA, tokenB);
    const supply = this.ledger.supplyOf(pair.address);
    const [reserveA, reserveB] = this.ledger.reserves(pair, tokenA);
    const amountA = (liquidity * reserveA) / supply;
    const amountB = (liquidity * reserveB) / supply;
    if (amountA === 0n || amountB === 0n) return [0n, 0n];
    this.approveRouter(owner, pair.address);
    this.ledger.transfer(pair.address, owner, pair.address, liquidity);
    this.ledger.burn(pair.address, pair.address, liquidity);
    this.ledger.transfer(tokenA, pair.address, owner, amountA);
    this.ledger.transfer(tokenB, pair.address, owner, amountB);
    this.count({ Transfer: 4, Sync: 1, Burn: 1 });
    this.routerCall(owner, "removeLiquidity", [tokenA, tokenB, liquidity, amountA, amountB, owner, NO_DEADLINE]);
    this.writer.touch(pair.address);
    return [amountA, amountB];
  }

  /** The address the launchpad's next token gets (its contract nonce). */
  private nextToken(launchpad: Address): Address {
    const nonce = this.launchpadNonces.get(launchpad);
    if (nonce === undefined) throw new Error(`market: unknown launchpad ${launchpad}`);
    return lower(getContractAddress({ from: launchpad, nonce: BigInt(nonce) }));
  }

  /** Whether a launch can succeed there: not if an outside transaction created the WETH pair of its
   * next token ahead of it (the factory would refuse the launch's pair, and it would stay so). */
  canLaunchOn(launchpad: Address): boolean {
    return !this.outsidePairs.has(sortTokens(this.nextToken(launchpad), this.weth).join(":"));
  }

  /** An outside transaction created a pair through the factory. */
  notePairCreated(token0: Address, token1: Address): void {
    this.outsidePairs.add(`${token0}:${token1}`);
  }

  /** One launchpad transaction: token, WETH pair, first liquidity (LP shares to the creator). */
  launch(creator: Address, p: LaunchParams): PairInfo & { token: Address } {
    const token = this.nextToken(p.launchpad);
    this.launchpadNonces.set(p.launchpad, this.launchpadNonces.get(p.launchpad)! + 1);
    const address = pairAddress(this.artifacts, this.deployment.factory, token, this.weth);
    const [token0, token1] = sortTokens(token, this.weth);
    const pair = { address, token0, token1 };
    this.ledger.addPair(pair);
    this.ledger.mint(token, p.launchpad, p.supply);
    this.ledger.transfer(token, p.launchpad, address, p.liquiditySupply);
    this.spend(creator, p.ethIn);
    this.ledger.moveEth(creator, this.weth, p.ethIn);
    this.ledger.mint(this.weth, address, p.ethIn);
    this.ledger.mint(address, ZERO_ADDRESS, MINIMUM_LIQUIDITY);
    this.ledger.mint(address, creator, sqrt(p.liquiditySupply * p.ethIn) - MINIMUM_LIQUIDITY);
    const rest = p.supply - p.liquiditySupply;
    if (rest > 0n) this.ledger.transfer(token, p.launchpad, creator, rest);
    this.count({ Transfer: rest > 0n ? 6 : 5, Deposit: 1, PairCreated: 1, Sync: 1, Mint: 1, TokenLaunched: 1 });
    this.call(
      creator,
      p.launchpad,
      this.artifacts.V2Launchpad.abi,
      "launch",
      [p.name, p.symbol, p.supply, p.liquiditySupply],
      p.ethIn,
      GAS.launch,
    );
    this.writer.touch(address);
    return { token, ...pair };
  }

  /** Makes a pair's reserves its balances again, by its `sync()` first in the next block: an outside
   * transaction sent it tokens without a swap or a mint. */
  syncReserves(pair: Address): void {
    const from = this.deployment.deployer;
    const data = encodeFunctionData({ abi: this.artifacts.UniswapV2Pair.abi, functionName: "sync" });
    this.count({ Sync: 1 });
    this.writer.sendInNextBlock({
      from,
      to: pair,
      data,
      gas: GAS.transfer,
      nonce: this.ledger.nextNonce(from),
      label: `sync by ${from} on ${pair}`,
    });
  }

  /** The launchpad's nonce read from the chain: outside launches move the address of the next token. */
  adoptLaunchpadNonce(launchpad: Address, nonce: number): void {
    this.launchpadNonces.set(launchpad, nonce);
  }

  /** An outside transaction changed what `owner` lets `spender` spend of `token`. */
  forgetApproval(owner: Address, token: Address, spender: Address): void {
    this.approvals.delete(`${owner}:${token}:${spender}`);
  }

  /** One V3 launchpad transaction: the token, its 1% WETH pool at a starting price that values the
   * supply at `ethDepth` WETH, and a single-sided position of the whole supply minted to the locker. */
  launchV3(creator: Address, p: V3LaunchParams): V3Pool & { token: Address } {
    const v3 = this.v3Contracts();
    const launchpad = v3.launchpad.address;
    const token = this.nextToken(launchpad);
    this.launchpadNonces.set(launchpad, this.launchpadNonces.get(launchpad)! + 1);
    const [token0, token1] = sortTokens(token, this.weth);
    const tokenIs0 = token0 === token;
    const mirror = new V3PoolMirror(V3_LAUNCH_FEE);
    // Price of token1 in token0, on the tick grid, so the position starts exactly there.
    const raw = sqrt(((tokenIs0 ? p.ethDepth : p.supply) << 192n) / (tokenIs0 ? p.supply : p.ethDepth));
    const startTick = Math.floor(tickAtSqrtRatio(raw) / mirror.spacing) * mirror.spacing;
    mirror.initialize(sqrtRatioAtTick(startTick));
    const maxUsable = Math.floor(MAX_TICK / mirror.spacing) * mirror.spacing;
    const [tickLower, tickUpper] = tokenIs0 ? [startTick, maxUsable] : [-maxUsable, startTick];
    const liquidity = mirror.liquidityForAmounts(
      tickLower,
      tickUpper,
      tokenIs0 ? p.supply : 0n,
      tokenIs0 ? 0n : p.supply,
    );
    const [amount0, amount1] = mirror.modifyPosition(v3.positionManager, tickLower, tickUpper, liquidity);
    const used = tokenIs0 ? amount0 : amount1;
    const address = this.v3PoolAddress(token0, token1, V3_LAUNCH_FEE);
    const pool: V3Pool = {
      address,
      token0,
      token1,
      fee: V3_LAUNCH_FEE,
      mirror,
      positionId: this.nextPositionId++,
      tickLower,
      tickUpper,
    };
    this.v3Pools.set(token, pool);
    this.ledger.mint(token, launchpad, p.supply);
    this.ledger.transfer(token, launchpad, address, used);
    const rest = p.supply - used;
    if (rest > 0n) this.ledger.transfer(token, launchpad, creator, rest);
    this.count({
      Transfer: rest > 0n ? 4 : 3,
      Approval: 1,
      PoolCreated: 1,
      Initialize: 1,
      MintV3: 1,
      IncreaseLiquidity: 1,
      Locked: 1,
      TokenCreated: 1,
    });
    this.call(
      creator,
      launchpad,
      this.artifacts.V3Launchpad.abi,
      "launch",
      [p.name, p.symbol, p.supply, mirror.sqrtPriceX96, p.withdrawable],
      0n,
      GAS.launch,
    );
    this.writer.touchV3(address);
    return { token, ...pool };
  }

  /** Removes `liquidity` from the token's position and collects everything it is owed (the amounts
   * and its fees) to its creator, in one multicall; the first time, the creator takes the position out
   * of the locker first (it must be withdrawable). Returns the (tokens, WETH) received. */
  decreaseLiquidity(owner: Address, token: Address, liquidity: bigint): [bigint, bigint] {
    const pool = this.v3Pool(token);
    const v3 = this.v3Contracts();
    if (!this.released.has(token)) {
      this.released.add(token);
      // ERC-721 transfer (with its Approval reset) to the creator.
      this.count({ Transfer: 1, Approval: 1, Released: 1 });
      this.call(owner, v3.locker, this.artifacts.LiquidityLocker.abi, "release", [pool.positionId], 0n, GAS.trade);
    }
    const [amount0, amount1] = pool.mirror.modifyPosition(
      v3.positionManager,
      pool.tickLower,
      pool.tickUpper,
      -liquidity,
    );
    const npm = this.artifacts.NonfungiblePositionManager.abi;
    const decrease = encodeFunctionData({
      abi: npm,
      functionName: "decreaseLiquidity",
      args: [{ tokenId: pool.positionId, liquidity, amount0Min: amount0, amount1Min: amount1, deadline: NO_DEADLINE }],
    });
    this.count({ DecreaseLiquidity: 1, BurnV3: 1 });
    const received = this.collectPosition(pool, owner);
    this.call(owner, v3.positionManager, npm, "multicall", [[decrease, received.data]], 0n, GAS.trade);
    this.writer.touchV3(pool.address);
    return received.amounts;
  }

  /** The locker pays a locked position's trading fees to its owner; returns (tokens, WETH). */
  collectFees(caller: Address, owner: Address, token: Address): [bigint, bigint] {
    const pool = this.v3Pool(token);
    const { amounts } = this.collectPosition(pool, owner);
    this.call(
      caller,
      this.v3Contracts().locker,
      this.artifacts.LiquidityLocker.abi,
      "collectFees",
      [pool.positionId],
      0n,
      GAS.trade,
    );
    this.writer.touchV3(pool.address);
    return amounts;
  }

  /** Liquidity of the token's position. */
  positionLiquidity(token: Address): bigint {
    const pool = this.v3Pool(token);
    return pool.mirror.position(this.v3Contracts().positionManager, pool.tickLower, pool.tickUpper).liquidity;
  }

  /** NonfungiblePositionManager.collect of everything owed, to `recipient`: pokes the pool first
   * while the position has liquidity (a Burn of zero), then the pool pays what it owes. */
  private collectPosition(pool: V3Pool, recipient: Address): { data: Hex; amounts: [bigint, bigint] } {
    const npmAddress = this.v3Contracts().positionManager;
    const { mirror, tickLower, tickUpper } = pool;
    if (mirror.position(npmAddress, tickLower, tickUpper).liquidity > 0n) {
      mirror.modifyPosition(npmAddress, tickLower, tickUpper, 0n);
      this.count({ BurnV3: 1 });
    }
    const [amount0, amount1] = mirror.collect(npmAddress, tickLower, tickUpper, UINT128_MAX, UINT128_MAX);
    if (amount0 > 0n) this.ledger.transfer(pool.token0, pool.address, recipient, amount0);
    if (amount1 > 0n) this.ledger.transfer(pool.token1, pool.address, recipient, amount1);
    this.count({ CollectV3: 1, Collect: 1, Transfer: (amount0 > 0n ? 1 : 0) + (amount1 > 0n ? 1 : 0) });
    const data = encodeFunctionData({
      abi: this.artifacts.NonfungiblePositionManager.abi,
      functionName: "collect",
      args: [{ tokenId: pool.positionId, recipient, amount0Max: UINT128_MAX, amount1Max: UINT128_MAX }],
    });
    const tokenIs0 = pool.token0 !== this.weth;
    return { data, amounts: tokenIs0 ? [amount0, amount1] : [amount1, amount0] };
  }

  /** An exact-input swap through SwapRouter on a V3 pool: paying ether or receiving it (`eth`,
   * wrapped and unwrapped by the router), or WETH itself. Skipped (0n) if the pool cannot fill it. */
  private v3Swap(trader: Address, tokenIn: Address, tokenOut: Address, amountIn: bigint, pay: "eth" | "weth"): bigint {
    const pool = this.v3PoolBetween(tokenIn, tokenOut)!;
    const quote = this.v3Quote(pool, tokenIn, amountIn);
    if (quote.amountOut === 0n) return 0n;
    const router = this.v3Contracts().swapRouter;
    const viaEth = pay === "eth";
    const ethIn = viaEth && tokenIn === this.weth;
    const ethOut = viaEth && tokenOut === this.weth;
    if (ethIn) {
      this.spend(trader, amountIn);
      this.ledger.moveEth(trader, this.weth, amountIn);
      this.ledger.mint(this.weth, pool.address, amountIn);
    } else {
      this.approve(trader, tokenIn, router);
      this.ledger.transfer(tokenIn, trader, pool.address, amountIn);
    }
    if (ethOut) {
      this.ledger.burn(this.weth, pool.address, quote.amountOut);
      this.ledger.moveEth(this.weth, trader, quote.amountOut);
    } else {
      this.ledger.transfer(tokenOut, pool.address, trader, quote.amountOut);
    }
    quote.commit();
    this.count({ Transfer: 2, SwapV3: 1, Deposit: ethIn ? 1 : 0, Withdrawal: ethOut ? 1 : 0 });
    const abi = this.artifacts.SwapRouter.abi;
    const params = {
      tokenIn,
      tokenOut,
      fee: pool.fee,
      recipient: ethOut ? router : trader,
      deadline: NO_DEADLINE,
      amountIn,
      amountOutMinimum: quote.amountOut,
      sqrtPriceLimitX96: 0n,
    };
    if (ethOut) {
      const swap = encodeFunctionData({ abi, functionName: "exactInputSingle", args: [params] });
      const unwrap = encodeFunctionData({ abi, functionName: "unwrapWETH9", args: [quote.amountOut, trader] });
      this.call(trader, router, abi, "multicall", [[swap, unwrap]], 0n, GAS.trade);
    } else {
      this.call(trader, router, abi, "exactInputSingle", [params], ethIn ? amountIn : 0n, GAS.trade);
    }
    this.writer.touchV3(pool.address);
    return quote.amountOut;
  }

  private v3Quote(pool: V3Pool, tokenIn: Address, amountIn: bigint) {
    const result = pool.mirror.swap(tokenIn === pool.token0, amountIn);
    // A swap that would run out of liquidity leaves input unspent: never sent.
    return result.filled ? result : { ...result, amountOut: 0n };
  }

  private v3PoolBetween(tokenA: Address, tokenB: Address): V3Pool | undefined {
    if (tokenA === this.weth) return this.v3Pools.get(tokenB);
    if (tokenB === this.weth) return this.v3Pools.get(tokenA);
    return undefined;
  }

  private v3Pool(token: Address): V3Pool {
    const pool = this.v3Pools.get(token);
    if (!pool) throw new Error(`market: ${token} has no V3 pool`);
    return pool;
  }

  private v3Contracts(): NonNullable<Contracts["v3"]> {
    if (!this.deployment.v3) throw new Error("market: no Uniswap V3 deployment");
    return this.deployment.v3;
  }

  /** The address a pool gets from the V3 factory (PoolAddress.computeAddress). */
  private v3PoolAddress(token0: Address, token1: Address, fee: number): Address {
    const salt = keccak256(
      encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "uint24" }], [token0, token1, fee]),
    );
    return lower(
      getContractAddress({
        opcode: "CREATE2",
        from: this.v3Contracts().factory,
        salt,
        bytecode: this.artifacts.UniswapV3Pool.bytecode,
      }),
    );
  }

  /** Refuses what the node would refuse: spending ether the account does not have yet. */
  private spend(from: Address, value: bigint): void {
    if (value > this.ledger.availableEth(from)) {
      throw new Error(`market: ${from} spends ${value} wei, more than it had when the block began`);
    }
  }

  private approveRouter(owner: Address, token: Address): void {
    this.approve(owner, token, this.router);
  }

  private approve(owner: Address, token: Address, spender: Address): void {
    const key = `${owner}:${token}:${spender}`;
    if (this.approvals.has(key)) return;
    this.approvals.add(key);
    this.count({ Approval: 1 });
    this.call(owner, token, this.artifacts.LaunchToken.abi, "approve", [spender, MAX_UINT256], 0n, GAS.transfer);
  }

  private routerCall(from: Address, functionName: string, args: unknown[], value = 0n): void {
    this.call(from, this.router, this.artifacts.UniswapV2Router02.abi, functionName, args, value, GAS.trade);
  }

  /** Whether the open block has room for another trade (its few transactions at the trade limit). */
  get roomForTrade(): boolean {
    return this.writer.gasLeft >= 4n * GAS.trade;
  }

  private call(
    from: Address,
    to: Address,
    abi: Abi,
    functionName: string,
    args: unknown[],
    value: bigint,
    gas: bigint,
  ): void {
    const data = encodeFunctionData({ abi, functionName, args });
    this.send(from, to, data, value, gas, `${functionName} by ${from} on ${to}`);
  }

  private send(from: Address, to: Address, data: Hex | undefined, value: bigint, gas: bigint, label: string): void {
    this.writer.send({ from, to, data, value, gas, nonce: this.ledger.nextNonce(from), label });
  }

  private count(logs: Partial<Record<LogName, number>>): void {
    for (const [name, n] of Object.entries(logs)) this.logs[name as LogName] += n;
  }
}
