import { names, PREPARED, tableName } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { tokenMetrics } from "@/db/schema";
import type { PricedToken } from "@/lib/domain/alert-conditions";
import type { FilterableToken } from "@/lib/domain/token-filter";

/** What the state alerts read of a token: the filter's values, and the price's for price alerts. */
export type CycleToken = FilterableToken & PricedToken & { address: string };

type Row = CycleToken & { flags: string };

/*
 * Raw SQL on purpose: this runs every cycle, timestamps travel as epoch milliseconds (so the
 * result does not depend on whether drizzle replaced the client's date parsers, as it does on
 * the worker's client), and flags as one string (postgres.js's array parser costs more than
 * the rest of the row).
 */
const m = names(tokenMetrics);
const METRICS = tableName(tokenMetrics);
const COLUMNS = `${m.address} as address, ${m.liquidityUsd} as "liquidityUsd", ${m.marketCapUsd} as "marketCapUsd",
  ${m.riskScore} as "riskScore", ${m.holderGrowth1hPct} as "holderGrowth1hPct",
  array_to_string(${m.riskFlags}, ',') as flags, (extract(epoch from ${m.createdAt}) * 1000)::float8 as "createdAtMs",
  ${m.priceUsd} as "priceUsd", ${m.priceChange5mPct} as "priceChange5mPct",
  ${m.priceChange1hPct} as "priceChange1hPct", ${m.priceChange24hPct} as "priceChange24hPct"`;
/** The snapshot's oldest running transaction, and the rows there are. */
const SNAPSHOT = `select pg_snapshot_xmin(pg_current_snapshot())::text as snapshot,
  (select count(*) from ${METRICS})::int as count`;

/**
 * token_metrics for each cycle, reading only the rows written since the previous load: a row
 * version's xmin is the transaction that wrote it, so a row whose xmin precedes the oldest
 * transaction still running when the previous load took its snapshot is unchanged since. The
 * first load reads everything, and so does a load after transaction ids wrapped (a new epoch)
 * or after rows were deleted (the count tells).
 */
export class TokenLoader {
  private byAddress = new Map<string, CycleToken>();
  /** The snapshot's oldest running transaction at the previous load, as epoch and 32-bit xid. */
  private since: { epoch: bigint; xid: bigint } | undefined;

  async load(sql: Sql): Promise<CycleToken[]> {
    return sql.begin("isolation level repeatable read read only", async (tx) => {
      const [{ snapshot, count }] = await tx.unsafe<{ snapshot: string; count: number }[]>(SNAPSHOT, [], PREPARED);
      const xmin = BigInt(snapshot);
      const next = { epoch: xmin >> 32n, xid: xmin & 0xffffffffn };
      const since = this.since?.epoch === next.epoch ? this.since.xid : undefined;
      let rows = await tx.unsafe<Row[]>(
        `select ${COLUMNS} from ${METRICS} ${since === undefined ? "" : "where xmin::text::bigint >= $1"}`,
        since === undefined ? [] : [String(since)],
      );
      // Updated in place: a changed token keeps its position, new ones come last.
      if (since === undefined) this.byAddress = new Map();
      for (const r of rows) this.byAddress.set(r.address, parse(r));
      if (this.byAddress.size !== count) {
        rows = await tx.unsafe<Row[]>(`select ${COLUMNS} from ${METRICS}`);
        this.byAddress = new Map(rows.map((r) => [r.address, parse(r)]));
      }
      this.since = next;
      return [...this.byAddress.values()];
    });
  }
}

function parse(r: Row): CycleToken {
  r.riskFlags = r.flags ? r.flags.split(",") : [];
  return r;
}

/** Whether two loads of a token hold the same values in every field loaded (NaN equal to NaN). */
export function sameToken(a: CycleToken, b: CycleToken): boolean {
  return (
    a === b ||
    (same(a.liquidityUsd, b.liquidityUsd) &&
      same(a.marketCapUsd, b.marketCapUsd) &&
      same(a.riskScore, b.riskScore) &&
      same(a.holderGrowth1hPct, b.holderGrowth1hPct) &&
      same(a.createdAtMs, b.createdAtMs) &&
      same(a.priceUsd, b.priceUsd) &&
      same(a.priceChange5mPct, b.priceChange5mPct) &&
      same(a.priceChange1hPct, b.priceChange1hPct) &&
      same(a.priceChange24hPct, b.priceChange24hPct) &&
      a.riskFlags.join() === b.riskFlags.join())
  );
}
const same = (a: number | null, b: number | null) => Object.is(a, b) || a === b;
