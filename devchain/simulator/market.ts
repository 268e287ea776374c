/**
 * Every on-chain action of the simulation: computes its outcome on the ledger exactly as the
 * contracts will, queues the transaction, and counts the logs it will emit. Actions that would
 * revert on chain throw here instead (a simulator bug), and actions that would achieve nothing
 * (a zero output) are skipped by returning 0n.
 */
import { type Abi, type Address, encodeFunctionData, getContractAddress, type Hex } from "viem";
import type { Artifacts } from "../compile";
import { type LaunchpadInfo, pairAddress } from "../deploy";
import { lower, MAX_UINT256, NO_DEADLINE, toQuantity } from "../encoding";
import { getAmountOut, liquidityAmounts, liquidityMinted, MINIMUM_LIQUIDITY, sortTokens, sqrt } from "../swap-math";
import type { ChainWriter } from "./chain-writer";
import { type Ledger, type PairInfo, ZERO_ADDRESS } from "./ledger";

export const LOG_NAMES = ["Transfer", "Approval", "Swap", "Mint", "Burn", "Sync", "Deposit", "Withdrawal", "PairCreated", "TokenLaunched"] as const;
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
}

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
    return this.logs.Swap + this.logs.Transfer + this.logs.Mint + this.logs.Burn;
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
    this.ledger.transfer(token, from, to, amount);
    this.count({ Transfer: 1 });
    this.call(from, token, this.artifacts.LaunchToken.abi, "transfer", [to, amount], 0n, GAS.transfer);
  }

  mintUsd(to: Address, amount: bigint): void {
    this.ledger.mint(this.usd, to, amount);
    this.count({ Transfer: 1 });
    this.call(this.deployment.deployer, this.usd, this.artifacts.USD.abi, "mint", [to, amount], 0n, GAS.transfer);
  }

  /** Output of an exact-input swap of `amountIn` tokenIn for tokenOut on their pair now. */
  quote(tokenIn: Address, tokenOut: Address, amountIn: bigint): bigint {
    const [rIn, rOut] = this.ledger.reserves(this.ledger.pairOf(tokenIn, tokenOut), tokenIn);
    return rIn > 0n && rOut > 0n && amountIn > 0n ? getAmountOut(amountIn, rIn, rOut) : 0n;
  }

  /** WETH held by the token's WETH pair: the depth of its market. */
  wethReserve(token: Address): bigint {
    return this.ledger.balanceOf(this.weth, this.ledger.pairOf(token, this.weth).address);
  }

  buyWithEth(trader: Address, token: Address, ethIn: bigint): bigint {
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

  addLiquidity(owner: Address, tokenA: Address, tokenB: Address, desiredA: bigint, desiredB: bigint): bigint {
    const pair = this.ledger.pairOf(tokenA, tokenB);
    const [reserveA, reserveB] = this.ledger.reserves(pair, tokenA);
    const [amountA, amountB] = liquidityAmounts(desiredA, desiredB, reserveA, reserveB);
    const [amount0, amount1, reserve0, reserve1] = tokenA === pair.token0 ? [amountA, amountB, reserveA, reserveB] : [amountB, amountA, reserveB, reserveA];
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
    this.call(creator, p.launchpad, this.artifacts.V2Launchpad.abi, "launch", [p.name, p.symbol, p.supply, p.liquiditySupply], p.ethIn, GAS.launch);
    this.writer.touch(address);
    return { token, ...pair };
  }

  /** Makes a pair's reserves its balances again, by its `sync()` first in the next block: an outside
   * transaction sent it tokens without a swap or a mint. */
  syncReserves(pair: Address): void {
    const from = this.deployment.deployer;
    const data = encodeFunctionData({ abi: this.artifacts.UniswapV2Pair.abi, functionName: "sync" });
    this.count({ Sync: 1 });
    this.writer.sendInNextBlock({ from, to: pair, data, gas: GAS.transfer, nonce: this.ledger.nextNonce(from), label: `sync by ${from} on ${pair}` });
  }

  /** The launchpad's nonce read from the chain: outside launches move the address of the next token. */
  adoptLaunchpadNonce(launchpad: Address, nonce: number): void {
    this.launchpadNonces.set(launchpad, nonce);
  }

  /** An outside transaction changed what `owner` lets the router spend of `token`. */
  forgetApproval(owner: Address, token: Address): void {
    this.approvals.delete(`${owner}:${token}`);
  }

  /** Refuses what the node would refuse: spending ether the account does not have yet. */
  private spend(from: Address, value: bigint): void {
    if (value > this.ledger.availableEth(from)) {
      throw new Error(`market: ${from} spends ${value} wei, more than it had when the block began`);
    }
  }

  private approveRouter(owner: Address, token: Address): void {
    const key = `${owner}:${token}`;
    if (this.approvals.has(key)) return;
    this.approvals.add(key);
    this.count({ Approval: 1 });
    this.call(owner, token, this.artifacts.LaunchToken.abi, "approve", [this.router, MAX_UINT256], 0n, GAS.transfer);
  }

  private routerCall(from: Address, functionName: string, args: unknown[], value = 0n): void {
    this.call(from, this.router, this.artifacts.UniswapV2Router02.abi, functionName, args, value, GAS.trade);
  }

  private call(from: Address, to: Address, abi: Abi, functionName: string, args: unknown[], value: bigint, gas: bigint): void {
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
