import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Abi, decodeFunctionResult, encodeFunctionData, erc20Abi, toEventSelector } from "viem";
import { type Artifacts, loadArtifacts } from "@/devchain/compile";
import { type Deployment, deploy } from "@/devchain/deploy";
import { historyAt } from "@/devchain/history-clock";
import { type DevChain, startDevChain } from "@/devchain/node";
import { Rpc, toHex } from "@/worker/indexer/rpc";
import type { ChainProfile } from "@/worker/profiles";
import { DEVSWAP_LAUNCH_EVENT, devchainProfile } from "@/worker/profiles/devchain";

export const TOKEN_LAUNCHED = toEventSelector(DEVSWAP_LAUNCH_EVENT);

const DEADLINE = 2n ** 40n;
const E18 = 10n ** 18n;
const pairAbi = [
  {
    type: "function",
    name: "getReserves",
    stateMutability: "view",
    inputs: [],
    outputs: [{ type: "uint112" }, { type: "uint112" }, { type: "uint32" }],
  },
] as const satisfies Abi;

/**
 * The dev chain (Hardhat node from devchain/) with its contracts deployed, and a small seeded
 * market driven through the real launchpads and router: launches, buys, sells, wallet transfers,
 * a funder paying fresh wallets that then trade. Blocks are mined on request, 12 s apart.
 */
export class DevchainMarket {
  readonly rpc: Rpc;
  readonly profile: ChainProfile;
  private seed: number;
  private time: number;
  accounts: string[] = [];
  private fresh: string[] = [];
  private approved = new Set<string>();
  readonly tokens: { token: string; pair: string }[] = [];

  private constructor(
    readonly chain: DevChain,
    readonly deployment: Deployment,
    private readonly artifacts: Artifacts,
    private readonly dataDir: string,
    seed: number,
  ) {
    this.rpc = new Rpc({ url: chain.rpcUrl });
    this.profile = devchainProfile(deployment);
    this.seed = seed;
    this.time = historyAt().startTimestamp;
  }

  static async start(seed = 1): Promise<DevchainMarket> {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "idx-devchain-"));
    const chain = await startDevChain({ dataDir, genesisTimestamp: historyAt().genesisTimestamp });
    const deployment = await deploy(chain.rpcUrl, { dataDir });
    const m = new DevchainMarket(chain, deployment, await loadArtifacts(), dataDir, seed);
    m.accounts = (await m.rpc.call<string[]>("eth_accounts", [])).map((a) => a.toLowerCase());
    for (const a of m.accounts.slice(1)) await m.send(deployment.deployer, a, undefined, 10_000n * E18);
    await m.mine();
    return m;
  }

  async stop() {
    await this.chain.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private rand(n: number) {
    this.seed = (this.seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((this.seed / 2 ** 31) * n);
  }

  private send(from: string, to: string, data?: string, value = 0n) {
    return this.rpc.call<string>("eth_sendTransaction", [
      { from, to, data, value: `0x${value.toString(16)}`, gas: toHex(8_000_000), gasPrice: "0x0" },
    ]);
  }

  async mine() {
    this.time += 12;
    await this.rpc.call("evm_mine", [this.time]);
  }

  async head() {
    return this.rpc.blockNumber();
  }

  async balanceOf(token: string, holder: string, block: number): Promise<bigint> {
    const data = await this.rpc.call<`0x${string}`>("eth_call", [
      {
        to: token,
        data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [holder as `0x${string}`] }),
      },
      toHex(block),
    ]);
    return decodeFunctionResult({ abi: erc20Abi, functionName: "balanceOf", data });
  }

  private traders() {
    return [...this.accounts.slice(1, 8), ...this.fresh];
  }

  /** `blocks` blocks of activity; `perBlock` transactions in each. */
  async simulate(blocks: number, perBlock = 4) {
    const { V2Launchpad, UniswapV2Router02 } = this.artifacts;
    const router = this.deployment.uniswapV2.router;
    const weth = this.deployment.weth;
    for (let b = 0; b < blocks; b++) {
      if (this.tokens.length === 0 || (this.rand(12) === 0 && this.tokens.length < 6)) {
        const v2Pads = this.deployment.launchpads.filter((l) => l.protocol === "uniswap-v2");
        const pad = v2Pads[this.rand(v2Pads.length)].address;
        const creator = this.accounts[1 + this.rand(7)];
        const i = this.tokens.length;
        const data = encodeFunctionData({
          abi: V2Launchpad.abi,
          functionName: "launch",
          args: [`Moon Dog ${i}`, `MDOG${i}`, 1_000_000n * E18, 600_000n * E18],
        });
        await this.send(creator, pad, data, 5n * E18);
        await this.mine();
        const [launched] = await this.rpc.getLogs(await this.head(), await this.head(), [pad], [TOKEN_LAUNCHED]);
        this.tokens.push({ token: `0x${launched.topics[1].slice(26)}`, pair: `0x${launched.topics[2].slice(26)}` });
      }
      const head = await this.head();
      for (let t = 0; t < perBlock; t++) {
        const { token } = this.tokens[this.rand(this.tokens.length)];
        const trader = this.traders()[this.rand(this.traders().length)];
        const held = await this.balanceOf(token, trader, head);
        const action = held > 0n ? this.rand(4) : 0;
        if (action <= 1) {
          const data = encodeFunctionData({
            abi: UniswapV2Router02.abi,
            functionName: "swapExactETHForTokens",
            args: [0n, [weth, token], trader, DEADLINE],
          });
          await this.send(trader, router, data, BigInt(1 + this.rand(20)) * 10n ** 16n);
        } else if (action === 2) {
          if (!this.approved.has(`${trader}:${token}`)) {
            this.approved.add(`${trader}:${token}`);
            await this.send(
              trader,
              token,
              encodeFunctionData({
                abi: erc20Abi,
                functionName: "approve",
                args: [router as `0x${string}`, 2n ** 255n],
              }),
            );
          }
          const data = encodeFunctionData({
            abi: UniswapV2Router02.abi,
            functionName: "swapExactTokensForETH",
            args: [held / 2n, 0n, [token, weth], trader, DEADLINE],
          });
          await this.send(trader, router, data);
        } else {
          const to = this.traders()[this.rand(this.traders().length)];
          await this.send(
            trader,
            token,
            encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to as `0x${string}`, held / 3n] }),
          );
        }
      }
      // A funder pays a fresh wallet, which trades from the next block on.
      const funded = this.rand(5) === 0 ? `0x${(0xf00000 + this.fresh.length).toString(16).padStart(40, "0")}` : null;
      if (funded) {
        await this.rpc.call("hardhat_impersonateAccount", [funded]);
        await this.send(this.accounts[9], funded, undefined, 1_000n * E18);
      }
      await this.mine();
      if (funded) this.fresh.push(funded);
    }
  }

  /** `trader` buys `token` for `wei` of ether through the router, in the next block. */
  async buy(trader: string, token: string, wei: bigint) {
    const data = encodeFunctionData({
      abi: this.artifacts.UniswapV2Router02.abi,
      functionName: "swapExactETHForTokens",
      args: [0n, [this.deployment.weth, token], trader, DEADLINE],
    });
    await this.send(trader, this.deployment.uniswapV2.router, data, wei);
    await this.mine();
  }

  /** Pair reserves and token supply as the chain has them at `block`. */
  async reserves(pair: string, block: number): Promise<[bigint, bigint]> {
    const data = await this.rpc.call<`0x${string}`>("eth_call", [
      { to: pair, data: encodeFunctionData({ abi: pairAbi, functionName: "getReserves" }) },
      toHex(block),
    ]);
    const [r0, r1] = decodeFunctionResult({ abi: pairAbi, functionName: "getReserves", data });
    return [r0, r1];
  }

  async totalSupply(token: string, block: number): Promise<bigint> {
    const data = await this.rpc.call<`0x${string}`>("eth_call", [
      { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: "totalSupply" }) },
      toHex(block),
    ]);
    return decodeFunctionResult({ abi: erc20Abi, functionName: "totalSupply", data });
  }

  /** evm_snapshot plus the market's own memory of tokens, wallets and approvals. */
  async snapshot() {
    const id = await this.rpc.call<string>("evm_snapshot", []);
    const saved = {
      tokens: this.tokens.length,
      fresh: this.fresh.length,
      approved: new Set(this.approved),
      seed: this.seed,
    };
    return async () => {
      await this.rpc.call<boolean>("evm_revert", [id]);
      this.tokens.length = saved.tokens;
      this.fresh.length = saved.fresh;
      this.approved = saved.approved;
      // Another seed and later timestamps: the new branch differs from the reverted one.
      this.seed = saved.seed + 1;
      this.time += 5;
    };
  }
}
