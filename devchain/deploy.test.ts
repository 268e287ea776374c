import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Address, createPublicClient, hexToString, http, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadArtifacts } from "./compile";
import { type Deployment, deploy, deploymentFile, pairAddress, usdOf } from "./deploy";
import { historyAt } from "./history-clock";
import { type DevChain, startDevChain } from "./node";
import { getAmountOut } from "./swap-math";

const ammPairAbi = parseAbi(["function ammPair() view returns (address)"]);
const abi = parseAbi([
  "function name() view returns (string)",
  "function decimals() view returns (uint8)",
  "function getReserves() view returns (uint112, uint112, uint32)",
  "function token0() view returns (address)",
  "function getPair(address, address) view returns (address)",
  "function getAmountsOut(uint256, address[]) view returns (uint256[])",
  "function feeAmountTickSpacing(uint24) view returns (int24)",
  "function getPool(address, address, uint24) view returns (address)",
  "struct QuoteParams { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }",
  "function quoteExactInputSingle(QuoteParams) returns (uint256, uint160, uint32, uint256)",
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
    const names = await Promise.all(
      deployment.launchpads.map((l) => client.readContract({ address: l.address, abi, functionName: "name" })),
    );
    expect(names).toEqual(["PumpPad", "MoonLaunch", "BaseBlast"]);
    expect(deployment.launchpads.map((l) => l.protocol)).toEqual(["uniswap-v2", "uniswap-v2", "uniswap-v3"]);
    const [locker] = deployment.lockers;
    expect(await client.readContract({ address: locker.address, abi, functionName: "name" })).toBe("BaseBlast Locker");
    const usd = usdOf(deployment).address;
    expect(await client.readContract({ address: usd, abi, functionName: "decimals" })).toBe(6);
    const { factory, router } = deployment.uniswapV2;
    const pair = (
      await client.readContract({ address: factory, abi, functionName: "getPair", args: [deployment.weth, usd] })
    ).toLowerCase() as Address;
    expect(pair).toBe(pairAddress(await loadArtifacts(), factory, deployment.weth, usd));
    const [r0, r1] = await client.readContract({ address: pair, abi, functionName: "getReserves" });
    const wethFirst =
      (await client.readContract({ address: pair, abi, functionName: "token0" })).toLowerCase() === deployment.weth;
    const [weth, usdReserve] = wethFirst ? [r0, r1] : [r1, r0];
    expect((usdReserve * 10n ** 12n) / weth).toBe(3000n);
    // Router02 finds the pair by the init-code hash it was built with: the published pair's.
    const [, out] = await client.readContract({
      address: router,
      abi,
      functionName: "getAmountsOut",
      args: [10n ** 18n, [deployment.weth, usd]],
    });
    expect(out).toBe(getAmountOut(10n ** 18n, weth, usdReserve));
    expect(deployment).toMatchObject({ chainId: 31337, deployBlock: 1 });
    expect(deployment.otherContracts).toContain(router);
  });

  it("deploys Uniswap V3 whose periphery finds the factory's pools: a full-range WETH/USD pool quoted", async () => {
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const { factory, quoterV2, feeTiers } = deployment.uniswapV3;
    const spacings = await Promise.all(
      feeTiers.map((fee) =>
        client.readContract({ address: factory, abi, functionName: "feeAmountTickSpacing", args: [fee] }),
      ),
    );
    expect(spacings).toEqual([1, 10, 60, 200]);
    const usd = usdOf(deployment).address;
    // The position manager minted into the pool (its callback checks the pool address it computes from
    // the init-code hash), and QuoterV2 computes the same address.
    const pool = await client.readContract({
      address: factory,
      abi,
      functionName: "getPool",
      args: [deployment.weth, usd, 500],
    });
    const { result } = await client.simulateContract({
      address: quoterV2,
      abi,
      functionName: "quoteExactInputSingle",
      args: [{ tokenIn: deployment.weth, tokenOut: usd, amountIn: 10n ** 18n, fee: 500, sqrtPriceLimitX96: 0n }],
    });
    expect(pool).not.toBe("0x0000000000000000000000000000000000000000");
    const usdOut = Number(result[0]) / 1e6;
    expect(usdOut).toBeGreaterThan(2990);
    expect(usdOut).toBeLessThan(3000);
  });

  it("deploys the quirk tokens in their pools: fees, bytes32 metadata, no decimals(), a honeypot, a tax", async () => {
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const [deflating, bytes32, noDecimals, walletFee] = deployment.quirkTokens;
    expect(deployment.quirkTokens.map((q) => q.quirk)).toEqual([
      "fee-on-transfer",
      "bytes32-metadata",
      "no-decimals",
      "fee-to-wallet",
      "honeypot",
      "owner-mintable",
      "raisable-tax",
    ]);
    // 1% of every DeflatingERC20 transfer is burnt: the pool got 99% of what the router moved.
    const [r0, r1] = await client.readContract({ address: deflating.pool, abi, functionName: "getReserves" });
    expect(deflating.address < deployment.weth ? r0 : r1).toBe(990_000n * 10n ** 18n);
    const name = await client.call({ to: bytes32.address, data: "0x06fdde03" });
    expect(hexToString(name.data!, { size: 32 })).toBe("Bytes Thirty Two");
    await expect(client.readContract({ address: noDecimals.address, abi, functionName: "decimals" })).rejects.toThrow();
    const quotes = deployment.quoteTokens.filter((q) => q.stable).map((q) => q.decimals);
    expect(quotes).toEqual([6, 18]);
    expect([bytes32.quote, noDecimals.quote]).toEqual(
      deployment.quoteTokens.filter((q) => q.stable).map((q) => q.address),
    );
    // The wallet-fee token's owner (the deployer) pays no fee: its pool got all it added.
    const [w0, w1] = await client.readContract({ address: walletFee.pool, abi, functionName: "getReserves" });
    expect(walletFee.address < walletFee.quote ? w0 : w1).toBe(1_000_000n * 10n ** 18n);
    // The honeypot and the tax token name the pair the deployment created for them.
    for (const q of deployment.quirkTokens.filter((t) => t.quirk === "honeypot" || t.quirk === "raisable-tax")) {
      const pair = await client.readContract({ address: q.address, abi: ammPairAbi, functionName: "ammPair" });
      expect(pair.toLowerCase()).toBe(q.pool);
      expect(q.quote).toBe(deployment.weth);
    }
  });
});
