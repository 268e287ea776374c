import { insertRows, names, tableName } from "@/db/bulk";
import { chainContracts } from "@/db/schema";
import type { Tx } from "../indexer/sql";
import type { ChainProfile } from "./types";

/** The profile's known contracts by role, as chain_contracts holds them (each address once). */
export function knownContracts(p: ChainProfile): { address: string; role: string; name: string }[] {
  return (
    [
      ...p.factories.map((c) => ({ ...c, role: "factory" })),
      ...p.positionManagers.map((c) => ({ ...c, role: "position_manager" })),
      ...p.launchpads.map((c) => ({ ...c, role: "launchpad" })),
      ...p.lockers.map((c) => ({ ...c, role: "locker" })),
      ...p.otherContracts.map((address) => ({ address, name: "router", role: "router" })),
    ]
      .map(({ address, role, name }) => ({ address, role, name }))
      // An address listed twice (a launchpad also named among the routers) keeps its first role.
      .filter((c, i, all) => all.findIndex((o) => o.address === c.address) === i)
  );
}

/**
 * Writes chain_contracts from the profile (SQL that needs the roles, such as who counts as a
 * holder, reads it), with the quote tokens by their symbols (the web app names pools' pair tokens
 * from it; they are no indexed tokens).
 */
export async function writeKnownContracts(tx: Tx, p: ChainProfile) {
  const contracts = knownContracts(p);
  const known = new Set(contracts.map((c) => c.address));
  const quotes = p.quoteTokens
    .filter((q) => !known.has(q.address))
    .map((q) => ({ address: q.address, role: "quote_token", name: q.symbol }));
  const rows = [...contracts, ...quotes];
  await tx.unsafe(
    `delete from ${tableName(chainContracts)} where ${names(chainContracts).address} <> all($1::text[])`,
    [rows.map((r) => r.address)],
  );
  await insertRows(tx, chainContracts, rows, { onConflict: { target: ["address"], action: "update" } });
}
