import { index, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { address, blockNumber, uint256 } from "./columns";

/** Current ERC-20 balance per (token, holder), derived from token_transfers. */
export const balances = pgTable(
  "balances",
  {
    tokenAddress: address().notNull(),
    holder: address().notNull(),
    amount: uint256().notNull(),
    updatedBlock: blockNumber().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tokenAddress, t.holder] }),
    index("balances_token_amount_idx").on(t.tokenAddress, t.amount.desc().nullsFirst(), t.holder),
    index("balances_holder_idx").on(t.holder),
  ],
);
