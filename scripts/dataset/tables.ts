/**
 * The tables the dataset fills, with their columns in the order rows are built. Values are
 * PostgreSQL text input (null for NULL), so one row feeds both COPY and parameterized INSERT.
 * The order is a valid load order: tokens come before token_metrics (foreign key).
 */
export const TABLES = {
  tokens: [
    "address",
    "name",
    "symbol",
    "decimals",
    "total_supply",
    "launchpad",
    "sector",
    "creator",
    "launch_pool",
    "created_block",
    "created_tx",
    "created_at",
  ],
  token_metrics: [
    "address",
    "created_at",
    "price_usd",
    "market_cap_usd",
    "liquidity_usd",
    "volume_24h_usd",
    "holder_count",
    "holder_growth_1h_pct",
    "trending_score",
    "risk_score",
    "risk_flags",
    "priced_pool",
    "updated_block",
    "updated_at",
  ],
  holder_count_history: ["token_address", "at", "holder_count"],
  pools: ["address", "factory", "dex", "token0", "token1", "reserve0", "reserve1", "lp_total_supply", "liquidity_usd", "created_block", "reserve_block"],
  pool_reserves: ["pool_address", "block_number", "log_index", "reserve0", "reserve1"],
  events: [
    "id",
    "type",
    "wallet_address",
    "to_address",
    "token_address",
    "pool_address",
    "token_amount",
    "amount_usd",
    "direction",
    "block_number",
    "log_index",
    "tx_hash",
    "timestamp",
  ],
  token_transfers: ["block_number", "log_index", "token_address", "from_address", "to_address", "amount", "tx_hash", "tx_from"],
  balances: ["token_address", "holder", "amount", "updated_block"],
  wallet_positions: [
    "wallet",
    "token_address",
    "quantity",
    "cost_basis_usd",
    "realized_pnl_usd",
    "bought_usd",
    "sold_usd",
    "unknown_cost_quantity",
    "buy_count",
    "sell_count",
    "first_buy_block",
    "last_trade_block",
  ],
  wallets: [
    "address",
    "first_seen",
    "last_seen",
    "trade_count",
    "funder",
    "cluster_id",
    "is_contract",
    "classification",
    "sector_preference",
    "pnl_estimate_usd",
    "pnl_confidence",
    "portfolio_value_usd",
    "updated_at",
  ],
  token_scores: [
    "address",
    "risk_score",
    "risk_level",
    "flags",
    "holder_concentration_score",
    "liquidity_stability_score",
    "wash_trade_score",
    "smart_money_flow_score",
    "early_mover_count",
    "early_mover_net_activity",
    "avg_reputation_top10",
    "flag_evidence",
    "method_version",
    "ai_summary",
    "summary_input_hash",
    "updated_at",
  ],
  wallet_scores: [
    "address",
    "reputation_score",
    "confidence",
    "classification",
    "win_rate",
    "entry_timing_score",
    "consistency_score",
    "risk_drawdown_score",
    "trade_count",
    "method_version",
    "updated_at",
  ],
  blocks: ["number", "hash", "parent_hash", "timestamp"],
  sync_state: [
    "chain_id",
    "indexed_block",
    "indexed_block_hash",
    "indexed_block_time",
    "head_block",
    "head_block_time",
    "head_checked_at",
    "heartbeat_at",
    "finality_depth",
    "data_version",
    "updated_at",
  ],
} as const satisfies Record<string, readonly string[]>;

export type TableName = keyof typeof TABLES;

/** jsonb columns, whose text must reach the server as text (a driver would JSON-encode it again). */
export const JSON_COLUMNS: ReadonlySet<string> = new Set(["token_scores.flag_evidence"]);

/** Columns of free text; every other value is a number, hex, time or fixed word with nothing to escape. */
export const FREE_TEXT_COLUMNS: ReadonlySet<string> = new Set(["tokens.name", "tokens.symbol", "token_scores.ai_summary", "token_scores.flag_evidence"]);
export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

export type Row = (string | null)[];

/** Where generated rows go; a database writer also makes the generator wait (backpressure). */
export type RowSink = {
  add(table: TableName, row: Row): void;
  drain?(): Promise<void>;
};

/** Tags the dataset's rows with the version of the rules that made its scores. */
export const METHOD_VERSION = "dataset-1";

/**
 * ISO-8601 of a time, memoized: every time written is a block's or an hour's, so the cache is
 * bounded by the chain, and millions of rows share them.
 */
const isoCache = new Map<number, string>();
export function iso(ms: number): string {
  let s = isoCache.get(ms);
  if (s === undefined) {
    s = new Date(ms).toISOString();
    isoCache.set(ms, s);
  }
  return s;
}

/** Doubles rounded to what the API shows, so text output is short and reproducible. */
export const num = (x: number, digits = 6) => {
  if (!Number.isFinite(x)) throw new Error(`non-finite value ${x}`);
  const f = 10 ** digits;
  return String(Math.round(x * f) / f);
};

export const textArray = (xs: readonly string[]) => `{${xs.join(",")}}`;
