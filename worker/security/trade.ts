/**
 * Buy and sell tax, and the honeypot verdict: a small buy and a sell of all it bought, simulated
 * by eth_call in the token's main pool at the checked block. The caller is TradeProbe
 * (TradeProbe.sol), run as the code of an address no one owns, holding quote tokens by a storage
 * override of the quote's balance slot (found once per quote token by trying the usual layouts).
 * A tax is the share an untaxed token would have given that did not arrive; the pool's own fee
 * and price impact are in both figures, so they are no tax.
 */
import {
  type Abi,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  keccak256,
  parseAbi,
} from "viem";
import { honeypotOf, type TradeCheck } from "@/lib/domain/security";
import { type ChainAt, PROBE_GAS, Reverted, wordUint } from "./chain";
import { TRADE_PROBE_CODE } from "./trade-probe-code";

/** Where the probe runs: an address with no key and no code on any chain. */
const PROBE_ADDRESS = "0x7e57ab1e0000000000000000000000000000beef";

const probeAbi = [
  {
    type: "function",
    name: "probe",
    stateMutability: "nonpayable",
    inputs: [
      { name: "pool", type: "address" },
      { name: "v3", type: "bool" },
      { name: "token", type: "address" },
      { name: "quote", type: "address" },
      { name: "quoteIn", type: "uint256" },
    ],
    outputs: [
      {
        type: "tuple",
        components: [
          { name: "bought", type: "bool" },
          { name: "buyExpected", type: "uint256" },
          { name: "buyReceived", type: "uint256" },
          { name: "sold", type: "bool" },
          { name: "sellExpected", type: "uint256" },
          { name: "sellReceived", type: "uint256" },
        ],
      },
    ],
  },
] as const satisfies Abi;
const balanceOfAbi = parseAbi(["function balanceOf(address) view returns (uint256)"]);

/** The buy spends this share of the quote the pool holds (a small trade: little price impact). */
const BUY_SHARE_DIVISOR = 200n;
/** Storage slots tried for a quote token's balances mapping, in Solidity's and Vyper's key order. */
const BALANCE_SLOTS = 12;
/** An unlikely balance, so a slot that reads back exactly this is the balance slot. */
const MARKER = 0x5ec0_1d_5ec0_1dn * 10n ** 20n;

export type TradePool = { address: string; protocol: string; quote: string; quoteDecimals: number };

export const balanceOfData = (holder: string) =>
  encodeFunctionData({ abi: balanceOfAbi, functionName: "balanceOf", args: [holder as Hex] });

const word = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}` as Hex;

/** The storage key of `holder`'s entry in the mapping at `slot` (Solidity, or Vyper's reversed order). */
function mappingKey(holder: string, slot: number, vyper: boolean): Hex {
  const parts: [bigint, bigint] = vyper ? [BigInt(slot), BigInt(holder)] : [BigInt(holder), BigInt(slot)];
  return keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], parts));
}

/** The storage key of the probe's balance in `quote`, or undefined when no usual layout answers. */
export async function findBalanceKey(chain: ChainAt, quote: string): Promise<Hex | undefined> {
  const keys = Array.from({ length: BALANCE_SLOTS }, (_, slot) =>
    [false, true].map((v) => mappingKey(PROBE_ADDRESS, slot, v)),
  ).flat();
  const answers = await chain.calls(
    keys.map((key) => ({
      to: quote,
      data: balanceOfData(PROBE_ADDRESS),
      overrides: { [quote]: { stateDiff: { [key]: word(MARKER) } } },
    })),
  );
  return keys.find((_, i) => wordUint(answers[i]) === MARKER);
}

/** Simulates the buy and the sell; `balanceKey` is the probe's balance slot in the pool's quote token. */
export async function checkTrade(chain: ChainAt, token: string, pool: TradePool, balanceKey: Hex): Promise<TradeCheck> {
  const unknown = (reason: string): TradeCheck => ({
    status: "unknown",
    reason,
    pool: pool.address,
    honeypot: "unknown",
  });
  const held = wordUint(await chain.call({ to: pool.quote, data: balanceOfData(pool.address) }));
  if (held === undefined) return unknown("the quote token did not answer balanceOf");
  const quoteIn = held / BUY_SHARE_DIVISOR > 0n ? held / BUY_SHARE_DIVISOR : 10n ** BigInt(pool.quoteDecimals) / 100n;
  const v3 = pool.protocol === "uniswap-v3";
  const answer = await chain.call({
    to: PROBE_ADDRESS,
    from: PROBE_ADDRESS,
    gas: PROBE_GAS,
    data: encodeFunctionData({
      abi: probeAbi,
      functionName: "probe",
      args: [pool.address as Hex, v3, token as Hex, pool.quote as Hex, quoteIn],
    }),
    overrides: {
      [PROBE_ADDRESS]: { code: TRADE_PROBE_CODE as Hex },
      [pool.quote]: { stateDiff: { [balanceKey]: word(quoteIn) } },
    },
  });
  if (answer instanceof Reverted) return unknown("the simulated trade could not run");
  let r: {
    bought: boolean;
    buyExpected: bigint;
    buyReceived: bigint;
    sold: boolean;
    sellExpected: bigint;
    sellReceived: bigint;
  };
  try {
    r = decodeFunctionResult({ abi: probeAbi, functionName: "probe", data: answer });
  } catch {
    return unknown("the simulated trade answered garbage");
  }
  if (!r.bought || r.buyExpected === 0n) return unknown("a small buy reverts, so a sell cannot be tried");
  if (r.buyReceived === 0n) return { ...unknown("a small buy delivers no tokens"), buy_tax_pct: 100 };
  const buyTax = taxPct(r.buyExpected, r.buyReceived);
  const sellTax = r.sold && r.sellExpected > 0n ? taxPct(r.sellExpected, r.sellReceived) : undefined;
  return {
    status: "ok",
    pool: pool.address,
    buy_tax_pct: buyTax,
    ...(sellTax === undefined ? {} : { sell_tax_pct: sellTax }),
    ...honeypotOf(r.sold, sellTax),
  };
}

/** The share of `expected` that did not arrive, in percent to two decimals (never negative). */
function taxPct(expected: bigint, received: bigint): number {
  if (received >= expected) return 0;
  return Number(((expected - received) * 10_000n) / expected) / 100;
}
