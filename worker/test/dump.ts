import postgres from "postgres";

/** Columns that say when something was written, not what: left out of comparisons. */
const VOLATILE = new Set(["updated_at", "heartbeat_at", "data_version", "head_block", "head_block_time"]);

const TABLES = [
  "blocks",
  "tokens",
  "pools",
  "pool_reserves",
  "token_transfers",
  "events",
  "event_counts",
  "balances",
  "holder_count_history",
  "token_metrics",
  "wallets",
  "wallet_positions",
  "wallet_funding",
  "token_scores",
  "sync_state",
];

/** Every chain-derived table as sorted JSON rows, for comparing two databases. */
export async function dumpChainTables(url: string): Promise<Record<string, string[]>> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const out: Record<string, string[]> = {};
    for (const table of TABLES) {
      const rows = await sql.unsafe<{ j: Record<string, unknown> }[]>(`select row_to_json(t) as j from ${table} t`);
      out[table] = rows
        .map((r) => JSON.stringify(Object.fromEntries(Object.entries(r.j).filter(([k]) => !VOLATILE.has(k)))))
        .sort();
    }
    return out;
  } finally {
    await sql.end();
  }
}
