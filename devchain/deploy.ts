/**
 * Deploys the dev chain's contracts in one block: WETH9, the official Uniswap V2 (factory, Router02)
 * and V3 (factory with the four standard fee tiers, NonfungiblePositionManager with the real token
 * descriptor, SwapRouter, QuoterV2) from their npm builds; ours: two USD stablecoins (6 and 18
 * decimals), two V2 launchpads and a V3 launchpad with its locker; deep WETH/USD pools (V2 for both
 * stablecoins, V3 for the 6-decimals one) that give WETH its USD price; and four tokens with real
 * quirks, each in a V2 pool: fee-on-transfer (DeflatingERC20, its fee burnt) against WETH, bytes32
 * name and symbol against the 6-decimals dollar, no decimals() against the 18-decimals dollar, and
 * fee-on-transfer paid to a wallet (WalletFeeToken) against the 6-decimals dollar; and three against WETH
 * that the security checks must catch: a honeypot (sells revert for all but its owner), a token its owner
 * can mint, and a tax token whose owner can raise its taxes (2% on buys, 5% on sells to start with).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  type Abi,
  type Address,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  keccak256,
  stringToHex,
} from "viem";
import { type Artifacts, linkedBytecode, loadArtifacts } from "./compile";
import { lower, MAX_UINT256, NO_DEADLINE, toQuantity } from "./encoding";
import { writeJsonAtomic } from "./files";
import { RpcClient } from "./rpc";
import { sortTokens, sqrt } from "./swap-math";
import { MAX_TICK, TICK_SPACING } from "./v3-math";

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
  uniswapV3: {
    factory: Address;
    positionManager: Address;
    swapRouter: Address;
    quoterV2: Address;
    feeTiers: number[];
    /** NonfungibleTokenPositionDescriptor (NFTDescriptor linked): the positions' tokenURI. */
    tokenDescriptor: Address;
  };
  launchpads: LaunchpadInfo[];
  lockers: { address: Address; name: string }[];
  /** Routers and other infrastructure: never holders. */
  otherContracts: Address[];
  /** Tokens that break naive readers, each with the V2 pool it trades in. */
  quirkTokens: QuirkToken[];
}

export interface QuirkToken {
  address: Address;
  quirk:
    | "fee-on-transfer"
    | "bytes32-metadata"
    | "no-decimals"
    | "fee-to-wallet"
    | "honeypot"
    | "owner-mintable"
    | "raisable-tax";
  /** The quote token of its pool, and the pool (a Uniswap V2 pair). */
  quote: Address;
  pool: Address;
}

export const LAUNCHPAD_NAMES = ["PumpPad", "MoonLaunch"] as const;
export const V3_LAUNCHPAD_NAME = "BaseBlast";
export const TOKEN_LAUNCHED_EVENT =
  "TokenLaunched(address indexed token, address indexed pair, address indexed creator, " +
  "string name, string symbol, uint256 totalSupply)";
export const TOKEN_CREATED_EVENT =
  "TokenCreated(address indexed token, address indexed pool, address indexed creator, " +
  "string name, string symbol, uint256 totalSupply, uint24 fee, uint256 positionId, bool withdrawable)";
export const V3_FEE_TIERS = [100, 500, 3000, 10000];
/** Each WETH/USD pool: 10,000 WETH against 30,000,000 USD, i.e. 3,000 USD per WETH. */
export const WETH_USD_SEED = { weth: 10_000n * 10n ** 18n, usd: 30_000_000n };
/** Each quirk token's pool: 1,000,000 tokens against 300 WETH worth of the quote (0.9 USD a token). */
const QUIRK_SUPPLY = 10_000_000n * 10n ** 18n;
const QUIRK_POOL_TOKENS = 1_000_000n * 10n ** 18n;
/** Where WalletFeeToken pays its fee: an ordinary address, no contract (its "marketing wallet"). */
export const FEE_WALLET: Address = "0x00000000000000000000000000000000000fee01";
/** Gas limits of the deployment's transactions (gas is free on the dev chain: base fee 0). */
const CALL_GAS = 3_000_000n;
const DEPLOY_GAS = 15_000_000n;

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
  return lower(
    getContractAddress({ opcode: "CREATE2", from: factory, salt, bytecode: artifacts.UniswapV2Pair.bytecode }),
  );
}

interface DeployTx {
  to?: Address;
  data: Hex;
  value?: bigint;
  gas: bigint;
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
    txs.push({ data: encodeDeployData({ abi, bytecode, args }), gas: DEPLOY_GAS });
    return lower(getContractAddress({ from: deployer, nonce: BigInt(nonce + txs.length - 1) }));
  };
  const invoke = (
    to: Address,
    abi: Abi,
    functionName: string,
    args: unknown[] = [],
    value?: bigint,
    gas = CALL_GAS,
  ) => {
    txs.push({ to, data: encodeFunctionData({ abi, functionName, args }), value, gas });
  };
  const a = artifacts;

  const usdUnits = (token: Address, n: bigint) => n * 10n ** BigInt(token === usd18 ? 18 : 6);
  const weth = create(a.WETH9.abi, a.WETH9.bytecode);
  const usd = create(a.USD.abi, a.USD.bytecode, ["Dev USD", "DUSD", 6]);
  const usd18 = create(a.USD.abi, a.USD.bytecode, ["Dev Dai", "DDAI", 18]);
  const factory = create(a.UniswapV2Factory.abi, a.UniswapV2Factory.bytecode, [deployer]);
  const router = create(a.UniswapV2Router02.abi, a.UniswapV2Router02.bytecode, [factory, weth]);
  const launchpads = LAUNCHPAD_NAMES.map((name) =>
    create(a.V2Launchpad.abi, a.V2Launchpad.bytecode, [name, factory, weth]),
  );

  const v3Factory = create(a.UniswapV3Factory.abi, a.UniswapV3Factory.bytecode);
  invoke(v3Factory, a.UniswapV3Factory.abi, "enableFeeAmount", [100, TICK_SPACING[100]]);
  const nftDescriptor = create(a.NFTDescriptor.abi, a.NFTDescriptor.bytecode);
  const descriptorCode = linkedBytecode(a.NonfungibleTokenPositionDescriptor, { NFTDescriptor: nftDescriptor });
  const tokenDescriptor = create(a.NonfungibleTokenPositionDescriptor.abi, descriptorCode, [
    weth,
    stringToHex("ETH", { size: 32 }),
  ]);
  const positionManager = create(a.NonfungiblePositionManager.abi, a.NonfungiblePositionManager.bytecode, [
    v3Factory,
    weth,
    tokenDescriptor,
  ]);
  const swapRouter = create(a.SwapRouter.abi, a.SwapRouter.bytecode, [v3Factory, weth]);
  const quoterV2 = create(a.QuoterV2.abi, a.QuoterV2.bytecode, [v3Factory, weth]);
  const v3Launchpad = create(a.V3Launchpad.abi, a.V3Launchpad.bytecode, [V3_LAUNCHPAD_NAME, positionManager, weth]);
  // The launchpad's constructor creates its locker: the launchpad's first contract nonce.
  const locker = lower(getContractAddress({ from: v3Launchpad, nonce: 1n }));

  const deflating = create(a.DeflatingERC20.abi, a.DeflatingERC20.bytecode, [QUIRK_SUPPLY]);
  const bytes32Token = create(a.Bytes32Token.abi, a.Bytes32Token.bytecode, [QUIRK_SUPPLY]);
  const noDecimals = create(a.NoDecimalsToken.abi, a.NoDecimalsToken.bytecode, [QUIRK_SUPPLY]);
  const walletFee = create(a.WalletFeeToken.abi, a.WalletFeeToken.bytecode, [QUIRK_SUPPLY, FEE_WALLET]);
  // The honeypot and the tax token know their WETH pair before it exists (CREATE2 from their own address).
  const withPair = (name: "HoneypotToken" | "TaxToken") => {
    const next = lower(getContractAddress({ from: deployer, nonce: BigInt(nonce + txs.length) }));
    return create(a[name].abi, a[name].bytecode, [QUIRK_SUPPLY, pairAddress(artifacts, factory, next, weth)]);
  };
  const honeypot = withPair("HoneypotToken");
  const mintable = create(a.MintableToken.abi, a.MintableToken.bytecode, [QUIRK_SUPPLY]);
  const taxToken = withPair("TaxToken");

  // Dollars and wrapped ether for the pools (three WETH/USD pools, the quirk tokens' quotes).
  for (const token of [usd, usd18])
    invoke(token, a.USD.abi, "mint", [deployer, usdUnits(token, 3n * WETH_USD_SEED.usd)]);
  invoke(weth, a.WETH9.abi, "deposit", [], 4n * WETH_USD_SEED.weth);
  for (const token of [
    weth,
    usd,
    usd18,
    deflating,
    bytes32Token,
    noDecimals,
    walletFee,
    honeypot,
    mintable,
    taxToken,
  ]) {
    invoke(token, a.WETH9.abi, "approve", [router, MAX_UINT256]);
    invoke(token, a.WETH9.abi, "approve", [positionManager, MAX_UINT256]);
  }
  const addV2 = (tokenA: Address, tokenB: Address, amountA: bigint, amountB: bigint) =>
    invoke(router, a.UniswapV2Router02.abi, "addLiquidity", [
      tokenA,
      tokenB,
      amountA,
      amountB,
      0n,
      0n,
      deployer,
      NO_DEADLINE,
    ]);
  for (const stable of [usd, usd18]) addV2(weth, stable, WETH_USD_SEED.weth, usdUnits(stable, WETH_USD_SEED.usd));
  addV2(deflating, weth, QUIRK_POOL_TOKENS, 300n * 10n ** 18n);
  addV2(bytes32Token, usd, QUIRK_POOL_TOKENS, usdUnits(usd, 900_000n));
  addV2(noDecimals, usd18, QUIRK_POOL_TOKENS, usdUnits(usd18, 900_000n));
  addV2(walletFee, usd, QUIRK_POOL_TOKENS, usdUnits(usd, 900_000n));
  for (const token of [honeypot, mintable, taxToken]) addV2(token, weth, QUIRK_POOL_TOKENS, 300n * 10n ** 18n);

  // The V3 WETH/USD pool (0.05%), full range, at the same price.
  const [token0, token1] = sortTokens(weth, usd);
  const [amount0, amount1] =
    token0 === weth
      ? [WETH_USD_SEED.weth, usdUnits(usd, WETH_USD_SEED.usd)]
      : [usdUnits(usd, WETH_USD_SEED.usd), WETH_USD_SEED.weth];
  const npm = a.NonfungiblePositionManager.abi;
  invoke(
    positionManager,
    npm,
    "createAndInitializePoolIfNecessary",
    [token0, token1, 500, sqrt((amount1 << 192n) / amount0)],
    0n,
    DEPLOY_GAS,
  );
  const fullRange = Math.floor(MAX_TICK / TICK_SPACING[500]) * TICK_SPACING[500];
  invoke(positionManager, npm, "mint", [
    {
      token0,
      token1,
      fee: 500,
      tickLower: -fullRange,
      tickUpper: fullRange,
      amount0Desired: amount0,
      amount1Desired: amount1,
      amount0Min: 0n,
      amount1Min: 0n,
      recipient: deployer,
      deadline: NO_DEADLINE,
    },
  ]);

  const sends = txs.map((tx, i) => ({
    method: "eth_sendTransaction",
    params: [
      {
        from: deployer,
        to: tx.to,
        data: tx.data,
        value: toQuantity(tx.value ?? 0n),
        gas: toQuantity(tx.gas),
        gasPrice: "0x0",
        nonce: toQuantity(BigInt(nonce + i)),
      },
    ],
  }));
  const timestamp = Number(latest.timestamp) + 12;
  const results = await rpc.batch([...sends, { method: "evm_mine", params: [timestamp] }]);
  const hashes = results.slice(0, sends.length) as Hex[];
  const receipts = (await rpc.batch(hashes.map((h) => ({ method: "eth_getTransactionReceipt", params: [h] })))) as ({
    status: Hex;
    blockNumber: Hex;
  } | null)[];
  const failed = receipts.findIndex((r) => r?.status !== "0x1");
  if (failed >= 0) throw new Error(`deploy transaction ${failed} failed (${hashes[failed]})`);

  const quirk = (address: Address, kind: QuirkToken["quirk"], quote: Address): QuirkToken => ({
    address,
    quirk: kind,
    quote,
    pool: pairAddress(artifacts, factory, address, quote),
  });
  const deployment: Deployment = {
    chainId: Number(chainIdHex),
    rpcUrl,
    deployBlock: Number(receipts[0]!.blockNumber),
    deployer,
    weth,
    quoteTokens: [
      { address: weth, symbol: "WETH", decimals: 18, stable: false },
      { address: usd, symbol: "DUSD", decimals: 6, stable: true },
      { address: usd18, symbol: "DDAI", decimals: 18, stable: true },
    ],
    uniswapV2: { factory, router },
    uniswapV3: { factory: v3Factory, positionManager, swapRouter, quoterV2, feeTiers: V3_FEE_TIERS, tokenDescriptor },
    launchpads: [
      ...launchpads.map((address, i) => ({
        address,
        name: LAUNCHPAD_NAMES[i],
        protocol: "uniswap-v2" as const,
        event: TOKEN_LAUNCHED_EVENT,
      })),
      { address: v3Launchpad, name: V3_LAUNCHPAD_NAME, protocol: "uniswap-v3", event: TOKEN_CREATED_EVENT },
    ],
    lockers: [{ address: locker, name: `${V3_LAUNCHPAD_NAME} Locker` }],
    otherContracts: [router, swapRouter, positionManager, quoterV2],
    quirkTokens: [
      quirk(deflating, "fee-on-transfer", weth),
      quirk(bytes32Token, "bytes32-metadata", usd),
      quirk(noDecimals, "no-decimals", usd18),
      quirk(walletFee, "fee-to-wallet", usd),
      quirk(honeypot, "honeypot", weth),
      quirk(mintable, "owner-mintable", weth),
      quirk(taxToken, "raisable-tax", weth),
    ],
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
