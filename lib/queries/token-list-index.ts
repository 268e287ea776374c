import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { tokenMetrics } from "@/db/schema";
import { RISK_FLAGS } from "@/lib/scoring/vocab";
import { filterRanges, inRange, type RangeColumn, type TokenFilter } from "@/lib/tokens/filter";

export const TOKEN_SORTS = ["trending", "newest", "liquidity", "volume", "risk_asc"] as const;
export type TokenSort = (typeof TOKEN_SORTS)[number];

const FLAG_BITS = new Map<string, number>(RISK_FLAGS.map((f, i) => [f, 1 << i]));
const RANGE_COLUMNS: RangeColumn[] = ["liquidityUsd", "marketCapUsd", "riskScore", "holderGrowth1hPct", "createdAtMs"];

type Snapshot = {
  addresses: string[];
  columns: Record<RangeColumn, Float64Array>;
  flags: Int32Array;
  /** Token positions in each sort's order, ties broken by address as the list promises. */
  order: Record<TokenSort, Int32Array>;
};

/**
 * The token list read model held in memory: every filter column of token_metrics as typed
 * arrays, pre-sorted for each sort, rebuilt when the data version changes. A list request is
 * then one pass over an array (exact totals included) instead of a count over the table.
 */
async function build(db: Db): Promise<Snapshot> {
  const rows = await db
    .select({
      address: tokenMetrics.address,
      liquidityUsd: tokenMetrics.liquidityUsd,
      marketCapUsd: tokenMetrics.marketCapUsd,
      riskScore: tokenMetrics.riskScore,
      holderGrowth1hPct: tokenMetrics.holderGrowth1hPct,
      createdAtMs: sql<number>`(extract(epoch from ${tokenMetrics.createdAt}) * 1000)::float8`,
      trendingScore: tokenMetrics.trendingScore,
      volume24hUsd: tokenMetrics.volume24hUsd,
      riskFlags: tokenMetrics.riskFlags,
    })
    .from(tokenMetrics)
    .orderBy(tokenMetrics.address);
  const n = rows.length;
  const column = (pick: (r: (typeof rows)[number]) => number) => Float64Array.from(rows, pick);
  const columns = Object.fromEntries(RANGE_COLUMNS.map((c) => [c, column((r) => r[c])])) as Record<RangeColumn, Float64Array>;
  const flags = Int32Array.from(rows, (r) => r.riskFlags.reduce((m, f) => m | (FLAG_BITS.get(f) ?? 0), 0));
  // Rows come sorted by address, so position breaks ties in address order.
  const sortBy = (key: Float64Array, descending: boolean) =>
    Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => (descending ? key[b] - key[a] : key[a] - key[b]) || a - b);
  const order = {
    trending: sortBy(column((r) => r.trendingScore), true),
    newest: sortBy(columns.createdAtMs, true),
    liquidity: sortBy(columns.liquidityUsd, true),
    volume: sortBy(column((r) => r.volume24hUsd), true),
    risk_asc: sortBy(columns.riskScore, false),
  };
  return { addresses: rows.map((r) => r.address), columns, flags, order };
}

let building: { version: number; snapshot: Promise<Snapshot> } | undefined;
let ready: { version: number; snapshot: Snapshot } | undefined;

/**
 * The snapshot for `version`. While it builds, requests get the previous one (one data version
 * behind for a moment) rather than waiting; only the very first build is waited for.
 */
function snapshotFor(db: Db, version: number): Promise<Snapshot> {
  if (ready?.version === version) return Promise.resolve(ready.snapshot);
  if (building?.version !== version) {
    const entry = { version, snapshot: build(db) };
    building = entry;
    entry.snapshot.then(
      (snapshot) => {
        if (building === entry) [ready, building] = [{ version, snapshot }, undefined];
      },
      // A failed build is dropped; the next request tries again.
      () => building === entry && (building = undefined),
    );
  }
  return ready ? Promise.resolve(ready.snapshot) : building!.snapshot;
}

/** The addresses of one page of the filtered, sorted list, and the exact number of matches. */
export async function queryTokenList(
  db: Db,
  version: number,
  q: { filter: TokenFilter; sort: TokenSort; page: number; limit: number },
  now: Date,
): Promise<{ addresses: string[]; total: number }> {
  const s = await snapshotFor(db, version);
  const ranges = filterRanges(q.filter, now).map((r) => ({ r, values: s.columns[r.column] }));
  const excluded = (q.filter.exclude_flags ?? []).reduce((m, f) => m | (FLAG_BITS.get(f) ?? 0), 0);
  const first = (q.page - 1) * q.limit;
  const addresses: string[] = [];
  let total = 0;
  next: for (const i of s.order[q.sort]) {
    if (s.flags[i] & excluded) continue;
    for (const { r, values } of ranges) if (!inRange(values[i], r)) continue next;
    if (total >= first && addresses.length < q.limit) addresses.push(s.addresses[i]);
    total++;
  }
  return { addresses, total };
}
