import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { PREPARED } from "@/db/bulk";
import { toQuery } from "@/db/client";
import { firstQuotePayments, walletFunding, wallets } from "@/db/schema";
import type { Funding, RangeData } from "../indexer/range";
import type { Tx } from "../indexer/sql";
import type { ChainState } from "../indexer/state";
import type { RangeRows } from "../indexer/transform";
import { knownContracts } from "../profiles/contracts";
import type { HeldWallets } from "./wallets";

const ZERO = "0x0000000000000000000000000000000000000000";
const fp = alias(firstQuotePayments, "fp");
const wal = alias(wallets, "wal");
const wf = alias(walletFunding, "wf");

/**
 * Funding edges from the quote tokens: for each wallet first seen in this range without a funder,
 * its first quote-token payment from an account without code, if that came no later than its first
 * event. That is how wallets are funded where native payments cannot all be read (a real chain:
 * only the blocks the indexer fetches are scanned), and it catches funders who pay in WETH or USDC
 * on any chain. The payments were recorded as their ranges passed (insertQuotePayments, worker/indexer/write.ts), this
 * range's included, so the edge is the same whatever the range boundaries. A bulk load's wallets
 * are `held` (wallets.ts): a wallet it has seen has no row yet.
 */
export async function quoteTokenFundings(
  tx: Tx,
  state: ChainState,
  data: RangeData,
  rows: RangeRows,
  held: HeldWallets | null = null,
): Promise<Funding[]> {
  const firstSeen = new Map<string, number>();
  for (const e of rows.events) {
    for (const w of e.to ? [e.wallet, e.to] : [e.wallet])
      if (!firstSeen.has(w) || firstSeen.get(w)! > e.block) firstSeen.set(w, e.block);
  }
  const skip = new Set([
    ZERO,
    ...knownContracts(state.profile).map((c) => c.address),
    ...data.fundings.map((f) => f.wallet),
  ]);
  const candidates = [...firstSeen.keys()].filter(
    (w) => !skip.has(w) && !state.nonHolders.has(w) && !state.tokens.has(w) && !held?.seen(w),
  );
  if (candidates.length === 0) return [];
  const q = toQuery(sql`
    select ${fp.recipient} as recipient, ${fp.sender} as sender, ${fp.asset} as asset, ${fp.value} as value,
           ${fp.blockNumber}::float8 as "blockNumber", ${fp.txHash} as "txHash"
      from ${firstQuotePayments} fp
     where ${fp.recipient} = any(${sql.param(candidates)}::text[])
       and not exists (select 1 from ${wallets} wal where ${wal.address} = ${fp.recipient})
       and not exists (select 1 from ${walletFunding} wf where ${wf.wallet} = ${fp.recipient})
     order by ${fp.recipient}`);
  type Payment = Pick<
    typeof firstQuotePayments.$inferSelect,
    "recipient" | "sender" | "asset" | "value" | "blockNumber" | "txHash"
  >;
  const found = await tx.unsafe<Payment[]>(q.text, q.params, PREPARED);
  return found
    .filter((p) => p.blockNumber <= firstSeen.get(p.recipient)!)
    .map((p) => ({
      wallet: p.recipient,
      funder: p.sender,
      block: p.blockNumber,
      txHash: p.txHash,
      value: BigInt(p.value),
      asset: p.asset,
    }));
}
