import type { Sql } from "@/db/client";
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
const COLUMNS = `address, liquidity_usd as "liquidityUsd", market_cap_usd as "marketCapUsd", risk_score as "riskScore",
  holder_growth_1h_pct as "holderGrowth1hPct", array_to_string(risk_flags, ',') as flags,
  (extract(epoch from created_at) * 1000)::float8 as "createdAtMs", price_usd as "priceUsd",
  price_change_5m_pct as "priceChange5mPct", price_change_1h_pct as "priceChange1hPct",
  price_change_24h_pct as "priceChange24hPct"`;

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
      const [{ snapshot, count }] = await tx<{ snapshot: string; count: number }[]>`
        select pg_snapshot_xmin(pg_current_snapshot())::text as snapshot,
               (select count(*) from token_metrics)::int as count`;
      const xmin = BigInt(snapshot);
      const next = { epoch: xmin >> 32n, xid: xmin & 0xffffffffn };
      const since = this.since?.epoch === next.epoch ? this.since.xid : undefined;
      let rows = await tx.unsafe<Row[]>(
        `select ${COLUMNS} from token_metrics ${since === undefined ? "" : "where xmin::text::bigint >= $1"}`,
        since === undefined ? [] : [String(since)],
      );
      // Updated in place: a changed token keeps its position, new ones come last.
      if (since === undefined) this.byAddress = new Map();
      for (const r of rows) this.byAddress.set(r.address, parse(r));
      if (this.byAddress.size !== count) {
        rows = await tx.unsafe<Row[]>(`select ${COLUMNS} from token_metrics`);
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
