import { type SQL, sql } from "drizzle-orm";
import { aliasColumns } from "@/db/bulk";
import { chainContracts, pools } from "@/db/schema";

/** Addresses whose balances are not holdings: minted-from, burned-to. */
export const BURN_ADDRESSES = [
  "0x0000000000000000000000000000000000000000",
  "0x000000000000000000000000000000000000dead",
] as const;

const BURNED = new Set<string>(BURN_ADDRESSES);

/** chain_contracts roles that hold tokens for others. */
export const CUSTODIAN_ROLES = ["position_manager", "locker"] as const;

/** Who counts as a holder (see isRealHolderSql), in memory: for the indexer's balance folds. */
export const isRealHolder = (holder: string, token: string, nonHolders: { has(address: string): boolean }) =>
  !BURNED.has(holder) && holder !== token && !nonHolders.has(holder);

const c = aliasColumns(chainContracts, "c");
const p = aliasColumns(pools, "p");

/**
 * The rule of who counts as a holder of a token (holder counts and concentration
 * exclude the zero and burn addresses, pool contracts (V2 and V3), the token contract itself, and
 * the contracts that hold tokens for others: V3 position managers and LP lockers), as SQL over a
 * holder-address expression.
 */
export function isRealHolderSql(holder: SQL, token: SQL): SQL {
  // The custodians are a handful of contracts: one array, read once per statement (an InitPlan), not a probe per
  // holder.
  return sql`${holder} <> all(${sql.raw(`array['${BURN_ADDRESSES.join("','")}']`)}
      || array(select ${c.address}
        from ${chainContracts} c where ${c.role} in (${sql.raw(CUSTODIAN_ROLES.map((r) => `'${r}'`).join(", "))})))
    and ${holder} <> ${token}
    and not exists (select 1 from ${pools} p where ${p.address} = ${holder})`;
}
