/**
 * Deploys the dev chain's contracts in one block: WETH, the USD stablecoin, the DevSwap factory and
 * router, two launchpads, and a deep WETH/USD pair that gives WETH its USD price.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { type Address, encodeDeployData, encodeFunctionData, getContractAddress, type Hex, keccak256 } from "viem";
import { type Artifacts, loadArtifacts } from "./compile";
import { lower, MAX_UINT256, NO_DEADLINE, toQuantity } from "./encoding";
import { writeJsonAtomic } from "./files";
import { RpcClient } from "./rpc";
import { sortTokens } from "./swap-math";

export interface Deployment {
  chainId: number;
  rpcUrl: string;
  deployBlock: number;
  deployer: Address;
  weth: Address;
  usd: Address;
  usdDecimals: 6;
  factory: { address: Address; name: "DevSwap" };
  router: Address;
  launchpads: { address: Address; name: string }[];
  wethUsdPair: Address;
}

export const LAUNCHPAD_NAMES = ["PumpPad", "MoonLaunch"] as const;
/** The WETH/USD pool: 10,000 WETH against 30,000,000 USD, i.e. 3,000 USD per WETH. */
export const WETH_USD_SEED = { weth: 10_000n * 10n ** 18n, usd: 30_000_000n * 10n ** 6n };
/** Gas limits of the deployment's transactions (gas is free on the dev chain: base fee 0). */
const CALL_GAS = 3_000_000n;
const DEPLOY_GAS = 10_000_000n;

export function deploymentFile(dataDir: string): string {
  return path.join(dataDir, "devchain", "deployment.json");
}

/** The address a CREATE2 pair gets from the factory, as DevSwapFactory computes it. */
export function pairAddress(artifacts: Artifacts, factory: Address, tokenA: Address, tokenB: Address): Address {
  const [token0, token1] = sortTokens(lower(tokenA), lower(tokenB));
  const salt = keccak256(`0x${token0.slice(2)}${token1.slice(2)}`);
  return lower(getContractAddress({ opcode: "CREATE2", from: factory, salt, bytecode: artifacts.DevSwapPair.bytecode }));
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
  const at = (offset: number) => lower(getContractAddress({ from: deployer, nonce: BigInt(nonce + offset) }));
  const [weth, usd, factory, router, pumpPad, moonLaunch] = [0, 1, 2, 3, 4, 5].map(at);

  const txs: { to?: Address; data: Hex; value?: bigint; gas?: bigint }[] = [
    { data: encodeDeployData({ abi: artifacts.WETH.abi, bytecode: artifacts.WETH.bytecode }) },
    { data: encodeDeployData({ abi: artifacts.USD.abi, bytecode: artifacts.USD.bytecode }) },
    { data: encodeDeployData({ abi: artifacts.DevSwapFactory.abi, bytecode: artifacts.DevSwapFactory.bytecode }) },
    {
      data: encodeDeployData({
        abi: artifacts.DevSwapRouter.abi,
        bytecode: artifacts.DevSwapRouter.bytecode,
        args: [factory, weth, keccak256(artifacts.DevSwapPair.bytecode)],
      }),
    },
    ...LAUNCHPAD_NAMES.map((name) => ({
      data: encodeDeployData({
        abi: artifacts.Launchpad.abi,
        bytecode: artifacts.Launchpad.bytecode,
        args: [name, factory, weth],
      }),
    })),
    {
      to: usd,
      data: encodeFunctionData({ abi: artifacts.USD.abi, functionName: "mint", args: [deployer, WETH_USD_SEED.usd] }),
    },
    { to: weth, data: encodeFunctionData({ abi: artifacts.WETH.abi, functionName: "deposit" }), value: WETH_USD_SEED.weth },
    ...[weth, usd].map((token) => ({
      to: token,
      data: encodeFunctionData({ abi: artifacts.WETH.abi, functionName: "approve", args: [router, MAX_UINT256] }),
    })),
    {
      to: router,
      data: encodeFunctionData({
        abi: artifacts.DevSwapRouter.abi,
        functionName: "addLiquidity",
        args: [weth, usd, WETH_USD_SEED.weth, WETH_USD_SEED.usd, 0n, 0n, deployer, NO_DEADLINE],
      }),
    },
  ];
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
    usd,
    usdDecimals: 6,
    factory: { address: factory, name: "DevSwap" },
    router,
    launchpads: [
      { address: pumpPad, name: LAUNCHPAD_NAMES[0] },
      { address: moonLaunch, name: LAUNCHPAD_NAMES[1] },
    ],
    wethUsdPair: pairAddress(artifacts, factory, weth, usd),
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
