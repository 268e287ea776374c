import { type Abi, decodeFunctionResult, encodeDeployData, encodeFunctionData, erc20Abi, type Hex } from "viem";
import { type Artifacts, loadArtifacts } from "@/devchain/compile";
import { toHex } from "@/worker/indexer/rpc";
import type { ChainProfile } from "@/worker/profiles";
import { DevchainMarket } from "./devchain-market";

const E18 = 10n ** 18n;
const DEADLINE = 2n ** 40n;
const FEE = 3000;
const SPACING = 60;
const MAX_TICK = 887_220;

/** sqrtPriceX96 of a price in raw token1 per raw token0. */
const sqrtPriceX96 = (raw1Per0: number) => BigInt(Math.round(Math.sqrt(raw1Per0) * 2 ** 96));

export type V3Pool = { token: string; pool: string };

/**
 * The dev chain's market (DevchainMarket: V2 launches and trades) and a V3 market on the official
 * Uniswap V3 contracts its deployment runs (factory, NonfungiblePositionManager, SwapRouter,
 * QuoterV2): tokens with a WETH pool only on V3, positions minted, increased, decreased, collected
 * and transferred, and swaps both ways, from a seed.
 */
export class V3Market {
  readonly pools: V3Pool[] = [];
  readonly positionIds: bigint[] = [];
  /** Fresh wallets paid in WETH only (no ether) before their first trade, and who paid them. */
  readonly wethFunded: { wallet: string; funder: string }[] = [];
  private seed: number;
  private approved = new Set<string>();

  /** The deployment's V3 contracts. */
  readonly v3: { factory: string; positions: string; router: string; quoter: string };
  /** The ABIs of the deployment's V3 contracts. */
  private readonly abi: { factory: Abi; pool: Abi; positions: Abi; router: Abi; quoter: Abi };

  private constructor(
    readonly v2: DevchainMarket,
    private readonly artifacts: Artifacts,
    /** Positions the deployment minted before this market's (the WETH/USD pool's). */
    readonly deployedPositions: number,
    seed: number,
  ) {
    this.seed = seed;
    const d = v2.deployment.uniswapV3;
    this.v3 = { factory: d.factory, positions: d.positionManager, router: d.swapRouter, quoter: d.quoterV2 };
    const a = artifacts;
    this.abi = {
      factory: a.UniswapV3Factory.abi,
      pool: a.UniswapV3Pool.abi,
      positions: a.NonfungiblePositionManager.abi,
      router: a.SwapRouter.abi,
      quoter: a.QuoterV2.abi,
    };
  }

  static async start(seed = 1): Promise<V3Market> {
    const v2 = await DevchainMarket.start(seed);
    const artifacts = await loadArtifacts();
    const data = encodeFunctionData({ abi: artifacts.NonfungiblePositionManager.abi, functionName: "totalSupply" });
    const minted = await v2.rpc.call<Hex>("eth_call", [
      { to: v2.deployment.uniswapV3.positionManager, data },
      "latest",
    ]);
    return new V3Market(v2, artifacts, Number(BigInt(minted)), seed);
  }

  /** The dev chain's profile: its V3 factory and position manager, tokens found by launch and by pool. */
  get profile(): ChainProfile {
    return this.v2.profile;
  }

  private rand(n: number) {
    this.seed = (this.seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((this.seed / 2 ** 31) * n);
  }

  private send(from: string, to: string, data: Hex, value = 0n) {
    return this.v2.rpc.call<string>("eth_sendTransaction", [
      { from, to, data, value: `0x${value.toString(16)}`, gas: toHex(5_000_000), gasPrice: "0x0" },
    ]);
  }

  private async call<T>(to: string, abi: Abi, functionName: string, args: unknown[], block?: number): Promise<T> {
    const data = await this.v2.rpc.call<Hex>("eth_call", [
      { to, data: encodeFunctionData({ abi, functionName, args }) },
      block === undefined ? "latest" : toHex(block),
    ]);
    return decodeFunctionResult({ abi, functionName, data }) as T;
  }

  private traders() {
    return this.v2.accounts.slice(1, 8);
  }

  /** WETH for `who`, and both routers' allowances for its tokens. */
  private async ready(who: string, token: string) {
    if (this.approved.has(`${who}:${token}`)) return;
    this.approved.add(`${who}:${token}`);
    const approve = encodeFunctionData({
      abi: erc20Abi,
      functionName: "approve",
      args: [this.v3.positions as Hex, 2n ** 255n],
    });
    const approveRouter = encodeFunctionData({
      abi: erc20Abi,
      functionName: "approve",
      args: [this.v3.router as Hex, 2n ** 255n],
    });
    await this.send(who, token, approve);
    await this.send(who, token, approveRouter);
  }

  private async wrap(who: string, amount: bigint) {
    const weth = this.v2.deployment.weth;
    await this.send(who, weth, encodeFunctionData({ abi: this.artifacts.WETH9.abi, functionName: "deposit" }), amount);
    await this.ready(who, weth);
  }

  /** A new token whose only pool is a V3 pool against WETH, with the creator's first position. */
  async launch() {
    const creator = this.traders()[this.rand(7)];
    const i = this.pools.length;
    const { LaunchToken } = this.artifacts;
    const hash = await this.v2.rpc.call<string>("eth_sendTransaction", [
      {
        from: creator,
        data: encodeDeployData({
          abi: LaunchToken.abi,
          bytecode: LaunchToken.bytecode,
          args: [`Vee Three ${i}`, `VEE${i}`, 1_000_000n * E18, creator],
        }),
        gas: toHex(5_000_000),
        gasPrice: "0x0",
      },
    ]);
    await this.v2.mine();
    const token = (
      await this.v2.rpc.call<{ contractAddress: string }>("eth_getTransactionReceipt", [hash])
    ).contractAddress.toLowerCase();
    const weth = this.v2.deployment.weth;
    const [token0, token1] = token < weth ? [token, weth] : [weth, token];
    // 1 WETH for 100,000 tokens.
    const raw1Per0 = token0 === token ? 1e-5 : 1e5;
    await this.send(
      creator,
      this.v3.positions,
      encodeFunctionData({
        abi: this.abi.positions,
        functionName: "createAndInitializePoolIfNecessary",
        args: [token0, token1, FEE, sqrtPriceX96(raw1Per0)],
      }),
    );
    await this.v2.mine();
    const pool = (
      await this.call<string>(this.v3.factory, this.abi.factory, "getPool", [token0, token1, FEE])
    ).toLowerCase();
    this.pools.push({ token, pool });
    await this.ready(creator, token);
    await this.wrap(creator, 100n * E18);
    await this.mintPosition(creator, { token, pool }, 900_000n * E18, 9n * E18);
  }

  private async mintPosition(owner: string, p: V3Pool, tokens: bigint, eth: bigint) {
    const weth = this.v2.deployment.weth;
    const tokenIs0 = p.token < weth;
    // A range around the current tick, or the full range.
    const [, tick] = await this.call<[bigint, number]>(p.pool, this.abi.pool, "slot0", []);
    const width = this.rand(3) === 0 ? MAX_TICK : SPACING * (20 + this.rand(200));
    const center = Math.round(tick / SPACING) * SPACING;
    const lower = Math.max(center - width, -MAX_TICK);
    const upper = Math.min(center + width, MAX_TICK);
    const [a0, a1] = tokenIs0 ? [tokens, eth] : [eth, tokens];
    const params = {
      token0: tokenIs0 ? p.token : weth,
      token1: tokenIs0 ? weth : p.token,
      fee: FEE,
      tickLower: lower,
      tickUpper: upper,
      amount0Desired: a0,
      amount1Desired: a1,
      amount0Min: 0n,
      amount1Min: 0n,
      recipient: owner,
      deadline: DEADLINE,
    };
    await this.send(
      owner,
      this.v3.positions,
      encodeFunctionData({ abi: this.abi.positions, functionName: "mint", args: [params] }),
    );
    await this.v2.mine();
    // Ids count from 1; a mint that reverted (too little of a side) adds none.
    const count = await this.call<bigint>(this.v3.positions, this.abi.positions, "totalSupply", []);
    if (count > this.deployedPositions && !this.positionIds.includes(count)) this.positionIds.push(count);
  }

  private async owner(id: bigint) {
    return (await this.call<string>(this.v3.positions, this.abi.positions, "ownerOf", [id])).toLowerCase();
  }

  /** `blocks` blocks of V3 activity (a launch now and then, swaps, positions), `perBlock` transactions each. */
  async simulate(blocks: number, perBlock = 3) {
    const weth = this.v2.deployment.weth;
    for (let b = 0; b < blocks; b++) {
      if (this.pools.length === 0 || (this.rand(15) === 0 && this.pools.length < 4)) await this.launch();
      for (let t = 0; t < perBlock; t++) {
        const p = this.pools[this.rand(this.pools.length)];
        const trader = this.traders()[this.rand(7)];
        const action = this.rand(10);
        if (action < 6) {
          const buy = action < 4;
          await this.ready(trader, p.token);
          await this.wrap(trader, E18);
          const held = await this.v2.balanceOf(p.token, trader, await this.v2.head());
          if (!buy && held === 0n) continue;
          const params = {
            tokenIn: buy ? weth : p.token,
            tokenOut: buy ? p.token : weth,
            fee: FEE,
            recipient: trader,
            deadline: DEADLINE,
            amountIn: buy ? BigInt(1 + this.rand(30)) * 10n ** 16n : held / BigInt(2 + this.rand(4)),
            amountOutMinimum: 0n,
            sqrtPriceLimitX96: 0n,
          };
          await this.send(
            trader,
            this.v3.router,
            encodeFunctionData({ abi: this.abi.router, functionName: "exactInputSingle", args: [params] }),
          );
        } else if (action === 6) {
          await this.ready(trader, p.token);
          await this.wrap(trader, 2n * E18);
          const held = await this.v2.balanceOf(p.token, trader, await this.v2.head());
          if (held > 0n) await this.mintPosition(trader, p, held / 2n, E18);
        } else {
          const id = this.positionIds[this.rand(this.positionIds.length)];
          const owner = await this.owner(id);
          const position = await this.call<readonly unknown[]>(this.v3.positions, this.abi.positions, "positions", [
            id,
          ]);
          const liquidity = position[7] as bigint;
          if (action === 7 && liquidity > 0n) {
            // Decrease and collect in one multicall, as the Uniswap interface does.
            const decrease = encodeFunctionData({
              abi: this.abi.positions,
              functionName: "decreaseLiquidity",
              args: [
                {
                  tokenId: id,
                  liquidity: liquidity / BigInt(1 + this.rand(3)),
                  amount0Min: 0n,
                  amount1Min: 0n,
                  deadline: DEADLINE,
                },
              ],
            });
            const collect = encodeFunctionData({
              abi: this.abi.positions,
              functionName: "collect",
              args: [{ tokenId: id, recipient: owner, amount0Max: 2n ** 128n - 1n, amount1Max: 2n ** 128n - 1n }],
            });
            await this.send(
              owner,
              this.v3.positions,
              encodeFunctionData({ abi: this.abi.positions, functionName: "multicall", args: [[decrease, collect]] }),
            );
          } else if (action === 8) {
            await this.send(
              owner,
              this.v3.positions,
              encodeFunctionData({
                abi: this.abi.positions,
                functionName: "collect",
                args: [{ tokenId: id, recipient: owner, amount0Max: 2n ** 128n - 1n, amount1Max: 2n ** 128n - 1n }],
              }),
            );
          } else {
            const to = this.traders()[this.rand(7)];
            await this.send(
              owner,
              this.v3.positions,
              encodeFunctionData({ abi: this.abi.positions, functionName: "transferFrom", args: [owner, to, id] }),
            );
          }
        }
      }
      if (this.rand(4) === 0) await this.wethFundedBuy();
      await this.v2.mine();
      // Some V2 activity too, so both protocols share blocks.
      if (this.rand(3) === 0) await this.v2.simulate(1, 2);
    }
  }

  /**
   * A funder pays a fresh wallet in WETH (gas is free: it needs no ether), which buys a token through the V3 router in
   * the next block.
   */
  private async wethFundedBuy() {
    const weth = this.v2.deployment.weth;
    const funder = this.v2.accounts[9];
    const wallet = `0x${(0xbe0000 + this.wethFunded.length + 1000 * this.seed).toString(16).padStart(40, "0")}`;
    await this.v2.rpc.call("hardhat_impersonateAccount", [wallet]);
    await this.wrap(funder, E18);
    await this.send(
      funder,
      weth,
      encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [wallet as Hex, E18] }),
    );
    await this.v2.mine();
    await this.ready(wallet, weth);
    const p = this.pools[this.rand(this.pools.length)];
    const params = {
      tokenIn: weth,
      tokenOut: p.token,
      fee: FEE,
      recipient: wallet,
      deadline: DEADLINE,
      amountIn: E18 / 2n,
      amountOutMinimum: 0n,
      sqrtPriceLimitX96: 0n,
    };
    const hash = await this.send(
      wallet,
      this.v3.router,
      encodeFunctionData({ abi: this.abi.router, functionName: "exactInputSingle", args: [params] }),
    );
    await this.v2.mine();
    const receipt = await this.v2.rpc.call<{ status: string }>("eth_getTransactionReceipt", [hash]);
    // A pool whose price left every position's range has no liquidity to buy from: the router reverts, and the wallet
    // never trades.
    if (receipt.status === "0x1") this.wethFunded.push({ wallet, funder });
  }

  /**
   * What the chain says at `block`: each V3 pool's slot0, liquidity and token balances; each position's owner and
   * liquidity.
   */
  async poolState(pool: string, block: number) {
    const [sqrtPriceX96, tick] = await this.call<[bigint, number]>(pool, this.abi.pool, "slot0", [], block);
    const liquidity = await this.call<bigint>(pool, this.abi.pool, "liquidity", [], block);
    const token0 = (await this.call<string>(pool, this.abi.pool, "token0", [], block)).toLowerCase();
    const token1 = (await this.call<string>(pool, this.abi.pool, "token1", [], block)).toLowerCase();
    return {
      sqrtPriceX96,
      tick,
      liquidity,
      reserve0: await this.v2.balanceOf(token0, pool, block),
      reserve1: await this.v2.balanceOf(token1, pool, block),
    };
  }

  async position(id: bigint, block: number) {
    const p = await this.call<readonly unknown[]>(this.v3.positions, this.abi.positions, "positions", [id], block);
    const owner = (
      await this.call<string>(this.v3.positions, this.abi.positions, "ownerOf", [id], block)
    ).toLowerCase();
    return { owner, liquidity: p[7] as bigint, tickLower: p[5] as number, tickUpper: p[6] as number };
  }

  /** QuoterV2's amount out for `amountIn` of tokenIn through the pool's fee tier. */
  async quote(tokenIn: string, tokenOut: string, amountIn: bigint): Promise<bigint> {
    const data = await this.v2.rpc.call<Hex>("eth_call", [
      {
        to: this.v3.quoter,
        data: encodeFunctionData({
          abi: this.abi.quoter,
          functionName: "quoteExactInputSingle",
          args: [{ tokenIn, tokenOut, amountIn, fee: FEE, sqrtPriceLimitX96: 0n }],
        }),
      },
      "latest",
    ]);
    const [amountOut] = decodeFunctionResult({
      abi: this.abi.quoter,
      functionName: "quoteExactInputSingle",
      data,
    }) as readonly [bigint, ...unknown[]];
    return amountOut;
  }

  /**
   * A snapshot of the chain and of this market's memory (pools, positions, approvals); the revert continues on another
   * seed.
   */
  async snapshot() {
    const revertV2 = await this.v2.snapshot();
    const saved = {
      pools: this.pools.length,
      ids: this.positionIds.length,
      funded: this.wethFunded.length,
      approved: new Set(this.approved),
      seed: this.seed,
    };
    return async () => {
      await revertV2();
      this.pools.length = saved.pools;
      this.positionIds.length = saved.ids;
      this.wethFunded.length = saved.funded;
      this.approved = saved.approved;
      this.seed = saved.seed + 1;
    };
  }

  async stop() {
    await this.v2.stop();
  }

  static readonly FEE = FEE;
}
