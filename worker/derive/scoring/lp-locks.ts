import { names, tableName } from "@/db/bulk";
import { balances, lpPositions, pools as poolsTable, positionEvents, tokenTransfers } from "@/db/schema";
import { BURN_ADDRESSES } from "@/lib/tokens/holders";
import type { Tx } from "../../indexer/sql";
import type { ChainState } from "../../indexer/state";

const [ZERO, DEAD] = BURN_ADDRESSES;

/**
 * A V2 pair mints this much LP to the zero address at its first deposit: every pair has it, so it says nothing of a
 * lock.
 */
const MINIMUM_LIQUIDITY = 1000;

const bl = names(balances);
const lp = names(lpPositions);
const pl = names(poolsTable);
const pe = names(positionEvents);
const tt = names(tokenTransfers);
const POOLS = tableName(poolsTable);

/**
 * Per V2 pair, the share of its LP supply locked for good: burned (sent to the zero or dead
 * address by a holder; the pair's own burns are withdrawals) or held by a locker, out of the
 * supply there ever was less MINIMUM_LIQUIDITY. The fold of balances credits no one with what goes
 * to the zero address and takes it off the supply, so burns are read from the transfers.
 */
async function v2Shares(tx: Tx, pools: string[], lockers: string[]) {
  const rows = await tx.unsafe<{ pool: string; supply: number; held: number; burned: number }[]>(
    `select p.${pl.address} as pool, p.${pl.lpTotalSupply}::float8 as supply,
            coalesce((select sum(b.${bl.amount})::float8
              from ${tableName(balances)} b
             where b.${bl.tokenAddress} = p.${pl.address} and b.${bl.holder} = any($2::text[])), 0) as held,
            coalesce((select sum(t.${tt.amount})::float8
              from ${tableName(tokenTransfers)} t
             where t.${tt.tokenAddress} = p.${pl.address} and t.${tt.toAddress} = $3
                         and t.${tt.fromAddress} <> p.${pl.address} and t.${tt.fromAddress} <> $3), 0) as burned
       from ${POOLS} p where p.${pl.address} = any($1::text[]) and p.${pl.protocol} = 'uniswap-v2'`,
    [pools, [DEAD, ...lockers], ZERO],
  );
  return rows.map((r) => {
    const ever = r.supply + r.burned - MINIMUM_LIQUIDITY;
    return { pool: r.pool, share: ever > 0 ? Math.min((r.held + r.burned) / ever, 1) : null };
  });
}

/**
 * What a position of `liquidity` in [tickLower, tickUpper) holds at √price `sp` (token1 per token0), in units of
 * token1.
 */
function positionValue(liquidity: number, tickLower: number, tickUpper: number, sp: number): number {
  const [a, b] = [1.0001 ** (tickLower / 2), 1.0001 ** (tickUpper / 2)];
  const s = Math.min(Math.max(sp, a), b);
  const amount0 = liquidity * (1 / s - 1 / b);
  const amount1 = liquidity * (s - a);
  return amount0 * sp * sp + amount1;
}

/**
 * Per V3 pool, the share of its positions' value (at the pool's price) that a locker holds and its
 * creator cannot take out: a lock that is withdrawable, or a position released from its locker,
 * is not locked. A locker's position without a lock fact (a locker whose terms are not read) counts
 * as locked. Liquidity minted straight on the pool, without a position manager, is not seen.
 */
async function v3Shares(tx: Tx, pools: string[], lockers: string[]) {
  const rows = await tx.unsafe<
    {
      pool: string;
      sqrt_price: number | null;
      held: boolean;
      lock: string | null;
      liquidity: number;
      lower: number;
      upper: number;
    }[]
  >(
    `select p.${pl.address} as pool, p.${pl.sqrtPriceX96}::float8 / 2 ^ 96 as sqrt_price,
            l.${lp.owner} = any($2::text[]) as held,
            l.${lp.liquidity}::float8 as liquidity, l.${lp.tickLower} as lower, l.${lp.tickUpper} as upper,
            (select e.${pe.kind} from ${tableName(positionEvents)} e
              where e.${pe.manager} = l.${lp.manager} and e.${pe.tokenId} = l.${lp.tokenId}
                and e.${pe.kind} in ('lock', 'lock_withdrawable')
              order by e.${pe.blockNumber} desc, e.${pe.logIndex} desc limit 1) as lock
       from ${POOLS} p join ${tableName(lpPositions)} l on l.${lp.poolAddress} = p.${pl.address}
      where p.${pl.address} = any($1::text[]) and p.${pl.protocol} = 'uniswap-v3' and l.${lp.liquidity} > 0`,
    [pools, lockers],
  );
  const byPool = new Map<string, { locked: number; total: number }>();
  for (const r of rows) {
    if (!r.sqrt_price) continue;
    const value = positionValue(r.liquidity, r.lower, r.upper, r.sqrt_price);
    const p = byPool.get(r.pool) ?? { locked: 0, total: 0 };
    p.total += value;
    if (r.held && r.lock !== "lock_withdrawable") p.locked += value;
    byPool.set(r.pool, p);
  }
  return [...byPool].map(([pool, p]) => ({ pool, share: p.total > 0 ? p.locked / p.total : null }));
}

/**
 * Each token's locked LP share: over its pools (V2 and V3) with a known share, the mean weighted
 * by each pool's USD liquidity. Null when no pool of the token has both (the term is left out).
 */
export async function lpLockedShares(tx: Tx, state: ChainState, tokens: string[]): Promise<Map<string, number | null>> {
  const poolsOf = new Map(tokens.map((t) => [t, (state.poolsByToken.get(t) ?? []).map((p) => p.address)]));
  const all = [...new Set([...poolsOf.values()].flat())];
  const lockers = [...state.lockers];
  const [v2, v3, usd] = await Promise.all([
    v2Shares(tx, all, lockers),
    v3Shares(tx, all, lockers),
    tx.unsafe<{ pool: string; usd: number }[]>(
      `select ${pl.address} as pool, ${pl.liquidityUsd}::float8 as usd from ${POOLS}
        where ${pl.address} = any($1::text[])`,
      [all],
    ),
  ]);
  const share = new Map([...v2, ...v3].map((s) => [s.pool, s.share]));
  const weight = new Map(usd.map((u) => [u.pool, u.usd]));
  return new Map(
    tokens.map((t) => {
      let locked = 0;
      let total = 0;
      for (const pool of poolsOf.get(t)!) {
        const s = share.get(pool);
        const w = weight.get(pool) ?? 0;
        if (s === null || s === undefined || w <= 0) continue;
        locked += w * s;
        total += w;
      }
      return [t, total > 0 ? locked / total : null];
    }),
  );
}
