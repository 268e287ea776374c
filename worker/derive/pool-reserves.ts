import { type InTx, updateRows } from "@/db/bulk";
import { pools } from "@/db/schema";
import type { ChainState } from "../indexer/state";
import type { RangeRows } from "../indexer/transform";

/** A pool's reserves as its row stores them: its balances as the state holds them, at the block of its last Sync. */
export type ReservesRow = {
  address: string;
  reserve0: bigint;
  reserve1: bigint;
  reserveBlock: number;
  /** V3 only. */
  sqrtPriceX96: bigint | null;
  tick: number | null;
  liquidity: bigint | null;
};

/** The rows of the pools that synced in a range, as the range leaves them in `state`. */
export function reservesRows(state: ChainState, rows: RangeRows): ReservesRow[] {
  const lastSync = new Map(rows.reserves.map((r) => [r.pool, r.block]));
  return [...lastSync].map(([address, block]) => {
    const p = state.pools.get(address)!;
    const v3 = p.protocol === "uniswap-v3";
    return {
      address,
      reserve0: p.reserve0,
      reserve1: p.reserve1,
      reserveBlock: block,
      sqrtPriceX96: v3 ? p.sqrtPriceX96 : null,
      tick: v3 ? p.tick : null,
      liquidity: v3 ? p.liquidity : null,
    };
  });
}

/**
 * A bulk load's pools' reserves (derive/held.ts): every range moves thousands of pools, and their
 * rows are read by nothing in a backfill but the state's load, so each pool's row is written once
 * when the backfill ends rather than updated by every range that syncs it. A state reloaded from
 * the rows meanwhile (after a quarantine) takes them back with `restore`.
 */
export class HeldReserves {
  private readonly rows = new Map<string, ReservesRow>();
  private staged: ReservesRow[] = [];

  stage(rows: ReservesRow[]) {
    this.staged = rows;
  }

  keep() {
    for (const r of this.staged) this.rows.set(r.address, r);
    this.staged = [];
  }

  drop() {
    this.staged = [];
  }

  /** Puts the held reserves into a state loaded from rows that do not hold them yet. */
  restore(state: ChainState) {
    for (const r of this.rows.values()) {
      const p = state.pools.get(r.address);
      if (!p) continue;
      p.reserve0 = r.reserve0;
      p.reserve1 = r.reserve1;
      p.sqrtPriceX96 = r.sqrtPriceX96 ?? 0n;
      p.tick = r.tick ?? 0;
      p.liquidity = r.liquidity ?? 0n;
    }
  }

  /** Updates the pools' rows to the held reserves. */
  async write(tx: InTx) {
    await updateRows(tx, pools, [...this.rows.values()], { match: ["address"] });
  }
}
