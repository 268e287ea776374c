import { type SQL, sql } from "drizzle-orm";

/** Addresses whose balances are not holdings: minted-from, burned-to. */
export const BURN_ADDRESSES = ["0x0000000000000000000000000000000000000000", "0x000000000000000000000000000000000000dead"] as const;

const BURNED = new Set<string>(BURN_ADDRESSES);

/** Who counts as a holder (see isRealHolderSql), in memory: for the indexer's balance folds. */
export const isRealHolder = (holder: string, token: string, pools: { has(address: string): boolean }) =>
  !BURNED.has(holder) && holder !== token && !pools.has(holder);

/**
 * The rule of who counts as a holder of a token (DESIGN: holder counts and concentration
 * exclude the zero and burn addresses, pair contracts and the token contract itself), as SQL
 * over a holder-address expression.
 */
export function isRealHolderSql(holder: SQL, token: SQL): SQL {
  return sql`${holder} <> all(${sql.raw(`array['${BURN_ADDRESSES.join("','")}']`)})
    and ${holder} <> ${token}
    and not exists (select 1 from pools p where p.address = ${holder})`;
}
