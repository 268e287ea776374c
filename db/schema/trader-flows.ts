import { numeric, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { address } from "./columns";
import { tokens } from "./tokens";

/**
 * Each trader's swap buys and sells of a token in the net-activity window (WINDOWS.netActivitySeconds)
 * up to the head the token's figures were last refreshed at, written with its token_metrics row
 * (worker/derive/trader-flows.ts): a holder's net activity reads one key here instead of the
 * token's recent swaps on every request.
 */
export const recentTraderFlows = pgTable(
  "recent_trader_flows",
  {
    tokenAddress: address()
      .notNull()
      .references(() => tokens.address, { onDelete: "cascade" }),
    wallet: address().notNull(),
    // Sums of uint256 amounts can exceed 78 digits: unbounded numeric.
    bought: numeric().notNull(),
    sold: numeric().notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenAddress, t.wallet] })],
);
