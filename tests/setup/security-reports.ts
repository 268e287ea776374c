import type postgres from "postgres";
import type { SecurityReport } from "@/lib/domain/security";

/**
 * The fixture chain is written without a node (scripts/fixtures), so the worker's security checks
 * cannot run on it (worker/test/security.test.ts runs them through the real pipeline on the dev
 * chain). API and browser tests store, for a token of the fixture, the row the worker writes for
 * the dev chain's honeypot or for a plain launch, in the worker's own shape.
 */
export const HONEYPOT_REPORT: SecurityReport = {
  trade: { status: "ok", buy_tax_pct: 0, honeypot: "yes", honeypot_reason: "sell_reverts" },
  owner: { status: "ok", state: "active", address: "0x00000000000000000000000000000000000a11ce" },
  code: { status: "ok", can_mint: true, can_pause: false, can_blacklist: false, can_change_fees: true, proxy: false },
  liquidity: {
    status: "ok",
    burnt_pct: 0,
    locked_pct: 80,
    free_pct: 20,
    locks: [
      {
        locker: "0x00000000000000000000000000000000000b10c1",
        name: "BaseBlast Locker",
        share_pct: 80,
        release: "never",
      },
    ],
  },
};

export const PLAIN_REPORT: SecurityReport = {
  trade: { status: "ok", buy_tax_pct: 0, sell_tax_pct: 0, honeypot: "no" },
  owner: { status: "ok", state: "none" },
  code: { status: "ok", can_mint: false, can_pause: false, can_blacklist: false, can_change_fees: false, proxy: false },
  liquidity: { status: "ok", burnt_pct: 100, locked_pct: 0, free_pct: 0, locks: [] },
};

/**
 * Stores `report` as `token`'s checks in its deepest pool at the indexed block, and bumps
 * data_version as the worker's write does (the API's and the pages' caches key on it).
 */
export async function storeSecurity(sql: postgres.Sql, token: string, report: SecurityReport) {
  const [row] = await sql<{ pool: string; block: number; at: Date }[]>`
    select p.address as pool, s.indexed_block::float8 as block, s.indexed_block_time as at
      from pools p cross join sync_state s
     where p.token0 = ${token} or p.token1 = ${token} order by p.liquidity_usd desc, p.address limit 1`;
  const stored = {
    ...report,
    trade: { ...report.trade, pool: row.pool },
    liquidity: { ...report.liquidity, pool: row.pool },
  };
  await sql.begin(async (tx) => {
    await tx`
      insert into token_security (token_address, block, checked_at, pool, report)
      values (${token}, ${row.block}, ${row.at}, ${row.pool}, ${tx.json(stored as never)})
      on conflict (token_address) do update set report = excluded.report, block = excluded.block,
        checked_at = excluded.checked_at, pool = excluded.pool`;
    await tx`update sync_state set data_version = data_version + 1`;
  });
  return { token, block: row.block, checkedAt: row.at.toISOString(), report: stored };
}
