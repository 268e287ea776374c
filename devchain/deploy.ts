/**
 * Deploys the dev chain's contracts in one block: WETH9 and the official Uniswap V2 factory and
 * Router02 from their npm builds, the USD stablecoin, two launchpads, and a deep WETH/USD pair that
 * gives WETH its USD price.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { type Abi, type Address, encodeDeployData, encodeFunctionData, getContractAddress, type Hex, keccak256 } from "viem";
import { type Artifacts, loadArtifacts } from "./compile";
import { lower, MAX_UINT256, NO_DEADLINE, toQuantity } from "./encoding";
import { writeJsonAtomic } from "./files";
import { RpcClient } from "./rpc";
import { sortTokens } from "./swap-math";

export interface QuoteToken {
  address: Address;
  symbol: string;
  decimals: number;
  /** A USD stablecoin (priced at 1); WETH is not. */
  stable: boolean;
}

export type Protocol = "uniswap-v2" | "uniswap-v3";

export interface LaunchpadInfo {
  address: Address;
  name: string;
  protocol: Protocol;
  /** The Solidity declaration of the event each launch emits. */
  event: string;
}

/** deployment.json: what the worker's devchain profile and the simulator read. */
export interface Deployment {
  chainId: number;
  rpcUrl: string;
  deployBlock: number;
  /** Hardhat account #0: deployed everything, mints the stablecoins, owns the WETH/USD liquidity. */
  deployer: Address;
  weth: Address;
  quoteTokens: QuoteToken[];
  uniswapV2: { factory: Address; router: Address };
  launchpads: LaunchpadInfo[];
  lockers: { address: Address; name: string }[];
  /** Routers and other infrastructure: never holders. */
  otherContracts: Address[];
}

export const LAUNCHPAD_NAMES = ["PumpPad", "MoonLaunch"] as const;
export const TOKEN_LAUNCHED_EVENT =
  "TokenLaunched(address indexed token, address indexed pair, address indexed creator, string name, string symbol, uint256 totalSupply)";
/** The WETH/USD pool: 10,000 WETH against 30,000,000 USD, i.e. 3,000 USD per WETH. */
export const WETH_USD_SEED = { weth: 10_000n * 10n ** 18n, usd: 30_000_000n * 10n ** 6n };
/** Gas limits of the deployment's transactions (gas is free on the dev chain: base fee 0). */
const CALL_GAS = 3_000_000n;
const DEPLOY_GAS = 10_000_000n;

export function deploymentFile(dataDir: string): string {
  return path.join(dataDir, "devchain", "deployment.json");
}

/** The dollar stablecoin the simulated market trades (6 decimals). */
export function usdOf(d: Pick<Deployment, "quoteTokens">): QuoteToken {
  const usd = d.quoteTokens.find((q) => q.stable && q.decimals === 6);
  if (!usd) throw new Error("deployment: no 6-decimals stablecoin among the quote tokens");
  return usd;
}

/** The address a CREATE2 pair gets from the Uniswap V2 factory (salt and init-code hash as
 * UniswapV2Library's pairFor). */
export function pairAddress(artifacts: Artifacts, factory: Address, tokenA: Address, tokenB: Address): Address {
  const [token0, token1] = sortTokens(lower(tokenA), lower(tokenB));
  const salt = keccak256(`0x${token0.slice(2)}${token1.slice(2)}`);
  return lower(getContractAddress({ opcode: "CREATE2", from: factory, salt, bytecode: artifacts.UniswapV2Pair.bytecode }));
}

interface DeployTx {
  to?: Address;
  data: Hex;
  value?: bigint;
}

export async function deploy(rpcUrl: string, options: { dataDir?: string } = {}): Promise<Deployment> {
  const artifacts = await loadArtifacts();
  const rpc = new RpcClient(rpcUrl);
  const [chainIdHex, accounts, latest] = (await rpc.batch([
    { method: "eth_chainId", params: [] },
    { method: "eth_accounts", params: [] },
    { method: "eth_getBlockByNumber", params: ["latest", false] },
  ])) as [Hex, Address[], { number: Hex; timestamp: Hex }];
  const deployer = lower(accounts[0]);
  const nonce = Number(await rpc.call<Hex>("eth_getTransactionCount", [deployer, "pending"]));
  const txs: DeployTx[] = [];
  /** Queues a contract creation; returns the address it gets (the deployer's nonce). */
  const create = (abi: Abi, bytecode: Hex, args: unknown[] = []): Address => {
    txs.push({ data: encodeDeployData({ abi, bytecode, args }) });
    return lower(getContractAddress({ from: deployer, nonce: BigInt(nonce + txs.length - 1) }));
  };
  const invoke = (to: Address, abi: Abi, functionName: string, args: unknown[] = [], value?: bigint) => {
    txs.push({ to, data: encodeFunctionData({ abi, functionName, args }), value });
  };
  const a = artifacts;

  const weth = create(a.WETH9.abi, a.WETH9.bytecode);
  const usd = create(a.USD.abi, a.USD.bytecode);
  const factory = create(a.UniswapV2Factory.abi, a.UniswapV2Factory.bytecode, [deployer]);
  const router = create(a.UniswapV2Router02.abi, a.UniswapV2Router02.bytecode, [factory, weth]);
  const launchpads = LAUNCHPAD_NAMES.map((name) => create(a.V2Launchpad.abi, a.V2Launchpad.bytecode, [name, factory, weth]));
  invoke(usd, a.USD.abi, "mint", [deployer, WETH_USD_SEED.usd]);
  invoke(weth, a.WETH9.abi, "deposit", [], WETH_USD_SEED.weth);
  for (const token of [weth, usd]) invoke(token, a.WETH9.abi, "approve", [router, MAX_UINT256]);
  invoke(router, a.UniswapV2Router02.abi, "addLiquidity", [weth, usd, WETH_USD_SEED.weth, WETH_USD_SEED.usd, 0n, 0n, deployer, NO_DEADLINE]);

  const sends = txs.map((tx, i) => ({
    method: "eth_sendTransaction",
    params: [
      {
        from: deployer,
        to: tx.to,
        data: tx.data,
        value: toQuantity(tx.value ?? 0n),
        gas: toQuantity(tx.to ? CALL_GAS : DEPLOY_GAS),
        gasPrice: "0x0",
        nonce: toQuantity(BigInt(nonce + i)),
      },
    ],
  }));
  const timestamp = Number(latest.timestamp) + 12;
  const results = await rpc.batch([...sends, { method: "evm_mine", params: [timestamp] }]);
  const hashes = results.slice(0, sends.length) as Hex[];
  const receipts = (await rpc.batch(hashes.map((h) => ({ method: "eth_getTransactionReceipt", params: [h] })))) as ({ status: Hex; blockNumber: Hex } | null)[];
  const failed = receipts.findIndex((r) => r?.status !== "0x1");
  if (failed >= 0) throw new Error(`deploy transaction ${failed} failed (${hashes[failed]})`);

  const deployment: Deployment = {
    chainId: Number(chainIdHex),
    rpcUrl,
    deployBlock: Number(receipts[0]!.blockNumber),
    deployer,
    weth,
    quoteTokens: [
      { address: weth, symbol: "WETH", decimals: 18, stable: false },
      { address: usd, symbol: "DUSD", decimals: 6, stable: true },
    ],
    uniswapV2: { factory, router },
    launchpads: launchpads.map((address, i) => ({ address, name: LAUNCHPAD_NAMES[i], protocol: "uniswap-v2", event: TOKEN_LAUNCHED_EVENT })),
    lockers: [],
    otherContracts: [router],
  };
  if (options.dataDir) writeJsonAtomic(deploymentFile(options.dataDir), deployment);
  return deployment;
}

/** npx tsx devchain/deploy.ts --rpc URL [--data-dir DIR] */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { rpc: { type: "string" }, "data-dir": { type: "string" } } });
  if (!values.rpc) throw new Error("usage: tsx devchain/deploy.ts --rpc URL [--data-dir DIR]");
  console.log(JSON.stringify(await deploy(values.rpc, { dataDir: values["data-dir"] }), null, 2));
}
