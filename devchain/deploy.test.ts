import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Address, createPublicClient, http, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadArtifacts } from "./compile";
import { type Deployment, deploy, deploymentFile, pairAddress, usdOf } from "./deploy";
import { historyAt } from "./history-clock";
import { type DevChain, startDevChain } from "./node";
import { getAmountOut } from "./swap-math";

const abi = parseAbi([
  "function name() view returns (string)",
  "function decimals() view returns (uint8)",
  "function getReserves() view returns (uint112, uint112, uint32)",
  "function token0() view returns (address)",
  "function getPair(address, address) view returns (address)",
  "function getAmountsOut(uint256, address[]) view returns (uint256[])",
]);

describe("dev chain and deploy", { timeout: 60_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "devchain-deploy-"));
  let chain: DevChain;
  let deployment: Deployment;

  beforeAll(async () => {
    chain = await startDevChain({ dataDir, seed: 5, genesisTimestamp: historyAt().genesisTimestamp });
    deployment = await deploy(chain.rpcUrl, { dataDir });
  }, 60_000);
  afterAll(async () => {
    await chain?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("writes the reset marker: chain id, genesis hash, seed", async () => {
    const state = JSON.parse(readFileSync(path.join(dataDir, "devchain", "state.json"), "utf8"));
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const genesis = await client.getBlock({ blockNumber: 0n });
    expect(state).toMatchObject({ chainId: 31337, genesisHash: genesis.hash, seed: 5, rpcUrl: chain.rpcUrl });
  });

  it("deploys the launchpads, Uniswap V2 and a WETH/USD pool at 3,000 USD per WETH", async () => {
    expect(existsSync(deploymentFile(dataDir))).toBe(true);
    expect(JSON.parse(readFileSync(deploymentFile(dataDir), "utf8"))).toEqual(deployment);
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const names = await Promise.all(deployment.launchpads.map((l) => client.readContract({ address: l.address, abi, functionName: "name" })));
    expect(names).toEqual(["PumpPad", "MoonLaunch"]);
    const usd = usdOf(deployment).address;
    expect(await client.readContract({ address: usd, abi, functionName: "decimals" })).toBe(6);
    const { factory, router } = deployment.uniswapV2;
    const pair = (await client.readContract({ address: factory, abi, functionName: "getPair", args: [deployment.weth, usd] })).toLowerCase() as Address;
    expect(pair).toBe(pairAddress(await loadArtifacts(), factory, deployment.weth, usd));
    const [r0, r1] = await client.readContract({ address: pair, abi, functionName: "getReserves" });
    const wethFirst = (await client.readContract({ address: pair, abi, functionName: "token0" })).toLowerCase() === deployment.weth;
    const [weth, usdReserve] = wethFirst ? [r0, r1] : [r1, r0];
    expect((usdReserve * 10n ** 12n) / weth).toBe(3000n);
    // Router02 finds the pair by the init-code hash it was built with: the published pair's.
    const [, out] = await client.readContract({ address: router, abi, functionName: "getAmountsOut", args: [10n ** 18n, [deployment.weth, usd]] });
    expect(out).toBe(getAmountOut(10n ** 18n, weth, usdReserve));
    expect(deployment).toMatchObject({ chainId: 31337, deployBlock: 1, otherContracts: [router] });
  });
});
