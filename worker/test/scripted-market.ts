import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { decodeFunctionResult, encodeFunctionData, erc20Abi, type Hex } from "viem";
import { type Artifacts, loadArtifacts } from "@/devchain/compile";
import { type Deployment, deploy } from "@/devchain/deploy";
import { historyAt } from "@/devchain/history-clock";
import { type DevChain, startDevChain } from "@/devchain/node";
import { Rpc, toHex } from "@/worker/indexer/rpc";
import type { ChainProfile } from "@/worker/profiles";
import { devchainProfile } from "@/worker/profiles/devchain";
import { TOKEN_LAUNCHED } from "./devchain-market";

const DEADLINE = 2n ** 40n;
const MAX = 2n ** 255n;
export const E18 = 10n ** 18n;
export const MINUTE = 60;
export const HOUR = 3_600;

export type Launch = { token: string; pair: string };

const wei = (v: bigint) => `0x${v.toString(16)}`;

/**
 * The dev chain with its contracts, driven by a script of named actors: wallets that appear with
 * ether of their own (set, not paid: no funder unless the script pays them), launches through the
 * real V2 launchpad, buys and sells through the router, a creator taking its pair's liquidity out.
 * Actions are sent into the next block, in order; `mine` closes it at the time the script says.
 */
export class ScriptedMarket {
  readonly rpc: Rpc;
  readonly profile: ChainProfile;
  private time = historyAt().startTimestamp;
  private approved = new Set<string>();

  private constructor(
    readonly chain: DevChain,
    readonly deployment: Deployment,
    private readonly artifacts: Artifacts,
    private readonly dataDir: string,
  ) {
    this.rpc = new Rpc({ url: chain.rpcUrl });
    this.profile = devchainProfile(deployment);
  }

  static async start(): Promise<ScriptedMarket> {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "idx-scripted-"));
    const chain = await startDevChain({ dataDir, genesisTimestamp: historyAt().genesisTimestamp });
    return new ScriptedMarket(chain, await deploy(chain.rpcUrl, { dataDir }), await loadArtifacts(), dataDir);
  }

  async stop() {
    await this.chain.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Wallet number `n` of the script, holding `eth` it brought from elsewhere. */
  async wallet(n: number, eth = 100n * E18): Promise<string> {
    const address = `0x5c7e${n.toString(16).padStart(36, "0")}`;
    await this.rpc.call("hardhat_impersonateAccount", [address]);
    await this.rpc.call("hardhat_setBalance", [address, wei(eth)]);
    return address;
  }

  private send(from: string, to: string, data?: Hex, value = 0n) {
    const tx = { from, to, data, value: wei(value), gas: toHex(8_000_000), gasPrice: "0x0" };
    return this.rpc.call<string>("eth_sendTransaction", [tx]);
  }

  /** Mines the block of the actions sent so far, `seconds` after the previous one. */
  async mine(seconds = 12) {
    this.time += seconds;
    await this.rpc.call("evm_mine", [this.time]);
  }

  async pay(from: string, to: string, wei: bigint) {
    await this.send(from, to, undefined, wei);
  }

  /** A launch through the first V2 launchpad, mined in a block of its own. */
  async launch(creator: string, o: { eth: bigint; supply: bigint; liquidity: bigint }): Promise<Launch> {
    const pad = this.deployment.launchpads.filter((l) => l.protocol === "uniswap-v2")[0].address;
    const args = ["Persona", "PRS", o.supply, o.liquidity] as const;
    const data = encodeFunctionData({ abi: this.artifacts.V2Launchpad.abi, functionName: "launch", args });
    await this.send(creator, pad, data, o.eth);
    await this.mine();
    const head = await this.rpc.blockNumber();
    const [launched] = await this.rpc.getLogs(head, head, [pad], [TOKEN_LAUNCHED]);
    return { token: `0x${launched.topics[1].slice(26)}`, pair: `0x${launched.topics[2].slice(26)}` };
  }

  async buy(wallet: string, token: string, wei: bigint) {
    const args = [0n, [this.deployment.weth, token as Hex], wallet as Hex, DEADLINE] as const;
    await this.send(wallet, this.deployment.uniswapV2.router, this.router("swapExactETHForTokens", args), wei);
  }

  /** Sells everything the wallet held at the last mined block. */
  async sellAll(wallet: string, token: string) {
    await this.approve(wallet, token);
    const amount = await this.balanceOf(token, wallet);
    const args = [amount, 0n, [token as Hex, this.deployment.weth], wallet as Hex, DEADLINE] as const;
    await this.send(wallet, this.deployment.uniswapV2.router, this.router("swapExactTokensForETH", args));
  }

  /** The creator takes all of its liquidity out of the launch's pair. */
  async pullLiquidity(creator: string, launch: Launch) {
    await this.approve(creator, launch.pair);
    const shares = await this.balanceOf(launch.pair, creator);
    const args = [launch.token as Hex, shares, 0n, 0n, creator as Hex, DEADLINE] as const;
    await this.send(creator, this.deployment.uniswapV2.router, this.router("removeLiquidityETH", args));
  }

  private router(functionName: string, args: readonly unknown[]): Hex {
    const call = { abi: this.artifacts.UniswapV2Router02.abi, functionName, args };
    return encodeFunctionData(call as Parameters<typeof encodeFunctionData>[0]);
  }

  private async approve(wallet: string, token: string) {
    if (this.approved.has(`${wallet}:${token}`)) return;
    this.approved.add(`${wallet}:${token}`);
    const spender = this.deployment.uniswapV2.router;
    const data = encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [spender, MAX] });
    await this.send(wallet, token, data);
  }

  private async balanceOf(token: string, holder: string): Promise<bigint> {
    const input = encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [holder as Hex] });
    const data = await this.rpc.call<Hex>("eth_call", [{ to: token, data: input }, "latest"]);
    return decodeFunctionResult({ abi: erc20Abi, functionName: "balanceOf", data });
  }
}
