/**
 * Who holds a token's main pool's liquidity: burnt (V2 LP shares at the zero or dead address),
 * locked (LP shares or V3 position NFTs held by one of the profile's lockers) or free (anyone
 * else, who can pull it). V3 positions are the indexer's (lp_positions, as of the checked
 * block), weighted by liquidity; a locker's terms are read from it where it has the devchain's
 * LiquidityLocker interface (locks(id): owner, withdrawable), otherwise unknown.
 */
import { decodeFunctionResult, encodeFunctionData, type Hex, parseAbi } from "viem";
import type { LiquidityCheck, LockRelease, LpLock } from "@/lib/domain/security";
import type { NamedContract } from "@/worker/profiles/types";
import { type ChainAt, Reverted, wordUint } from "./chain";
import { BURN_ADDRESSES } from "./contract";
import { balanceOfData } from "./trade";

const abi = parseAbi([
  "function totalSupply() view returns (uint256)",
  "function locks(uint256) view returns (address owner, bool withdrawable)",
]);

/** A V3 position in the pool: its NFT's owner and its liquidity. */
export type PoolPosition = { tokenId: string; owner: string; liquidity: bigint };
export type LpPool = { address: string; protocol: string };

const pct = (part: bigint, whole: bigint) => Number((part * 10_000n) / whole) / 100;

/** Shares that add up to 100: free is what burnt and locked leave. */
function shares(pool: string, total: bigint, burnt: bigint, locks: (Omit<LpLock, "share_pct"> & { units: bigint })[]) {
  const merged = new Map<string, LpLock & { units: bigint }>();
  for (const l of locks) {
    const key = `${l.locker}/${l.release}`;
    const m = merged.get(key);
    merged.set(key, { ...l, units: (m?.units ?? 0n) + l.units, share_pct: 0 });
  }
  const lockList = [...merged.values()].map(({ units, ...l }) => ({ ...l, share_pct: pct(units, total) }));
  const burnt_pct = pct(burnt, total);
  const locked_pct = Math.round(lockList.reduce((s, l) => s + l.share_pct, 0) * 100) / 100;
  const free_pct = Math.max(0, Math.round((100 - burnt_pct - locked_pct) * 100) / 100);
  return { status: "ok" as const, pool, burnt_pct, locked_pct, free_pct, locks: lockList };
}

export async function checkLiquidity(
  chain: ChainAt,
  pool: LpPool,
  lockers: NamedContract[],
  positions: PoolPosition[],
): Promise<LiquidityCheck> {
  const unknown = (reason: string): LiquidityCheck => ({ status: "unknown", reason, pool: pool.address });
  const lockerOf = new Map(lockers.map((l) => [l.address.toLowerCase(), l.name]));
  if (pool.protocol === "uniswap-v3") {
    const live = positions.filter((p) => p.liquidity > 0n);
    const total = live.reduce((s, p) => s + p.liquidity, 0n);
    if (total === 0n) return unknown("the pool holds no liquidity");
    const burnt = live.filter((p) => BURN_ADDRESSES.has(p.owner)).reduce((s, p) => s + p.liquidity, 0n);
    const locked = live.filter((p) => lockerOf.has(p.owner));
    const terms = await chain.calls(
      locked.map((p) => ({
        to: p.owner,
        data: encodeFunctionData({ abi, functionName: "locks", args: [BigInt(p.tokenId)] }),
      })),
    );
    const locks = locked.map((p, i) => ({
      locker: p.owner,
      name: lockerOf.get(p.owner)!,
      release: lockRelease(terms[i]),
      units: p.liquidity,
    }));
    return shares(pool.address, total, burnt, locks);
  }
  const holders = [...BURN_ADDRESSES, ...lockerOf.keys()];
  const [supply, ...balances] = await chain.calls([
    { to: pool.address, data: encodeFunctionData({ abi, functionName: "totalSupply" }) },
    ...holders.map((h) => ({ to: pool.address, data: balanceOfData(h) })),
  ]);
  const total = wordUint(supply);
  const units = balances.map(wordUint);
  if (!total || units.some((u) => u === undefined)) return unknown("the pool's LP token did not answer");
  const burnt = (units[0] ?? 0n) + (units[1] ?? 0n);
  const locks = [...lockerOf.entries()]
    .map(([locker, name], i) => ({ locker, name, release: "unknown" as const, units: units[i + 2]! }))
    .filter((l) => l.units > 0n);
  return shares(pool.address, total, burnt, locks);
}

/** A LiquidityLocker's terms for a position: never withdrawable, or whenever its owner asks. */
function lockRelease(answer: Hex | Reverted): LockRelease {
  if (answer instanceof Reverted) return "unknown";
  try {
    const [owner, withdrawable] = decodeFunctionResult({ abi, functionName: "locks", data: answer });
    if (BigInt(owner) === 0n) return "unknown";
    return withdrawable ? "by_owner" : "never";
  } catch {
    return "unknown";
  }
}
