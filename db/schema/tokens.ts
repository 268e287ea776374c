import { sql } from "drizzle-orm";
import { bigint, doublePrecision, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { address, blockNumber, createdAt, score, ts, uint256, usd } from "./columns";

export const tokens = pgTable(
  "tokens",
  {
    address: address().primaryKey(),
    name: text().notNull(),
    symbol: text().notNull(),
    decimals: integer().notNull().default(18),
    totalSupply: uint256().notNull(),
    /**
     * Supply before the first block the indexer read for this token: 0 when it saw the launch,
     * totalSupply() then for a token found through a later pair. total_supply = this + mints - burns.
     */
    supplyBase: uint256().notNull().default("0"),
    /**
     * Configured name of what the token came through: the launchpad whose launch event named it
     * (origin launchpad), or the factory whose new pool it was found in (origin factory).
     */
    launchpad: text().notNull(),
    /**
     * How the indexer found the token: launchpad (its launch event, which names the creator when
     * the launchpad's event has one) or factory (the non-quote side of a factory's new pool,
     * created before the indexer saw it: no creator is known).
     */
    origin: text().$type<"launchpad" | "factory">().notNull().default("launchpad"),
    /** meme | ai | defi | gaming | other, derived from name, symbol and launchpad. */
    sector: text().notNull().default("other"),
    /** The wallet the launch event names; null when unknown (origin factory, or a launch event without one). */
    creator: address(),
    /** The pair the token launched into (its deepest pair is tracked in token_metrics). */
    launchPool: address(),
    createdBlock: blockNumber().notNull(),
    createdTx: text(),
    createdAt: ts().notNull(),
    /**
     * What the indexer noticed about the contract's behaviour (lib/chain-text.ts, worker/derive/reconcile.ts):
     * text_cleaned (name or symbol had characters removed, invalid UTF-8 replaced or was cut),
     * metadata_fallback (name() or symbol() missing or unusable: a fallback stands in),
     * decimals_unknown (no decimals() answer: 18 is assumed, so unit quantities and unit prices may be off),
     * balance_mismatch (Transfer events disagreed with balanceOf/totalSupply: balances are
     * reconciled with the chain, as fee-on-transfer and rebasing tokens need).
     */
    anomalies: text().array().notNull().default(sql`'{}'::text[]`),
    /**
     * Where this fee-on-transfer token pays its cut besides burning it: ordinary addresses (a marketing
     * or treasury wallet) that a pool's swap showed receiving part of what the pool sent
     * (worker/indexer/transform.ts feesToSinks). Later transfers to them beside a swap or liquidity leg are fees.
     */
    feeSinks: text().array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [
    index("tokens_launchpad_idx").on(t.launchpad),
    // Reputation's creator links (worker/derive/scoring/wallet-inputs.ts) look tokens up by creator, and a
    // wallet's launches (lib/queries/launches.ts) walk them newest first.
    index("tokens_creator_idx").on(t.creator, t.createdBlock.desc(), t.address),
  ],
);

/**
 * How many tokens each wallet created (tokens.creator), kept by triggers on tokens
 * (db/functions/launch-counts.sql): the exact total of a wallet's launches is one probe, not a
 * walk over a prolific creator's hundreds.
 */
export const walletLaunchCounts = pgTable("wallet_launch_counts", {
  wallet: address().primaryKey(),
  total: integer().notNull(),
});

/**
 * The token read model behind GET /v1/tokens: one row per token holding every filter and sort
 * column, so a list query touches one table. The worker rewrites a row when its inputs change.
 */
export const tokenMetrics = pgTable(
  "token_metrics",
  {
    address: address()
      .primaryKey()
      .references(() => tokens.address, { onDelete: "cascade" }),
    createdAt: ts().notNull(),
    priceUsd: usd().notNull().default(0),
    marketCapUsd: usd().notNull().default(0),
    liquidityUsd: usd().notNull().default(0),
    // Columns with a window are named as the API names them (snake_case of the property alone
    // would run the window into the word: volume24h_usd).
    volume24hUsd: doublePrecision("volume_24h_usd").notNull().default(0),
    volume1hUsd: doublePrecision("volume_1h_usd").notNull().default(0),
    /** Fully diluted value: price x total supply (docs/methodology.md). */
    fdvUsd: usd().notNull().default(0),
    /**
     * Change of the price over each window ending at the indexed head, in percent (against the
     * price after the token's last pool event before it, events.price_usd); null without a price.
     */
    priceChange5mPct: doublePrecision("price_change_5m_pct"),
    priceChange1hPct: doublePrecision("price_change_1h_pct"),
    priceChange24hPct: doublePrecision("price_change_24h_pct"),
    /** Swaps in the 24 h up to the indexed head, by the trader's side, and the distinct traders. */
    buys24h: integer("buys_24h").notNull().default(0),
    sells24h: integer("sells_24h").notNull().default(0),
    makers24h: integer("makers_24h").notNull().default(0),
    holderCount: integer().notNull().default(0),
    holderGrowth1hPct: doublePrecision("holder_growth_1h_pct").notNull().default(0),
    /** Ranking for sort=trending: recent volume and holder growth, damped by risk. */
    trendingScore: score().notNull().default(0),
    riskScore: score().notNull().default(50),
    riskFlags: text().array().notNull().default(sql`'{}'::text[]`),
    pricedPool: address(),
    updatedBlock: blockNumber().notNull().default(0),
    updatedAt: createdAt(),
    /**
     * The transaction that last wrote the row (its xid8 as a number), set by a trigger
     * (db/functions/token-metrics-changes.sql): the token list's read model reads only the rows
     * written since the snapshot it last read (lib/queries/token-list-index.ts).
     */
    changedXact: bigint({ mode: "number" }).notNull().default(0),
  },
  (t) => [
    index("token_metrics_changed_idx").on(t.changedXact),
    index("token_metrics_trending_idx").on(t.trendingScore.desc().nullsFirst(), t.address),
    index("token_metrics_created_idx").on(t.createdAt.desc().nullsFirst(), t.address),
    index("token_metrics_liquidity_idx").on(t.liquidityUsd.desc().nullsFirst(), t.address),
    index("token_metrics_volume_idx").on(t.volume24hUsd.desc().nullsFirst(), t.address),
    index("token_metrics_risk_idx").on(t.riskScore.asc(), t.address),
    index("token_metrics_flags_idx").using("gin", t.riskFlags),
  ],
);

/**
 * The last transaction that deleted token_metrics rows (one row, kept by a trigger,
 * db/functions/token-metrics-changes.sql): a read model that reads only changed rows must read
 * every row again once one may be gone.
 */
export const tokenMetricsDeletes = pgTable("token_metrics_deletes", {
  xact: bigint({ mode: "number" }).notNull(),
});

/**
 * A token's holder count after each block that changed it: the count at any time is the last row
 * at or before it, so holder growth over a window is exact wherever the window falls.
 */
export const holderCountHistory = pgTable(
  "holder_count_history",
  {
    tokenAddress: address().notNull(),
    /** The block's timestamp. */
    at: ts().notNull(),
    holderCount: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenAddress, t.at] })],
);
