import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import type { SecurityReport } from "@/lib/domain/security";
import { address, blockNumber, ts } from "./columns";
import { tokens } from "./tokens";

/**
 * Each token's latest security checks (worker/security): what ran, at which block and at that
 * block's time, in the pool the checks chose. Rewritten whole by each run; not rolled back with a
 * reorg (a row checked above the indexed block is simply due again), and no crash-test dump
 * compares it: when it runs depends on the worker's pace, not on the chain alone.
 */
export const tokenSecurity = pgTable(
  "token_security",
  {
    tokenAddress: address()
      .primaryKey()
      .references(() => tokens.address, { onDelete: "cascade" }),
    block: blockNumber().notNull(),
    checkedAt: ts().notNull(),
    /** The pool the trade and liquidity checks read (the token's main pool then); null without one. */
    pool: text(),
    report: jsonb().$type<SecurityReport>().notNull(),
  },
  // The scanner takes the oldest checks first.
  (t) => [index("token_security_block_idx").on(t.block)],
);
