import { PREPARED } from "@/db/bulk";
import type { Funding, RangeData } from "../indexer/range";
import type { Tx } from "../indexer/sql";
import type { ChainState } from "../indexer/state";
import type { RangeRows } from "../indexer/transform";
import { knownContracts } from "../profiles/contracts";

const ZERO = "0x0000000000000000000000000000000000000000";

/**
 * Funding edges from the quote tokens: for each wallet first seen in this range without a funder,
 * its first quote-token payment from an account without code, if that came no later than its first
 * event. That is how wallets are funded where native payments cannot all be read (a real chain:
 * only the blocks the indexer fetches are scanned), and it catches funders who pay in WETH or USDC
 * on any chain. The payments were recorded as their ranges passed (insertQuotePayments, worker/indexer/write.ts), this
 * range's included, so the edge is the same whatever the range boundaries.
 */
export async function quoteTokenFundings(
  tx: Tx,
  state: ChainState,
  data: RangeData,
  rows: RangeRows,
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
    (w) => !skip.has(w) && !state.nonHolders.has(w) && !state.tokens.has(w),
  );
  if (candidates.length === 0) return [];
  const found = await tx.unsafe<
    { recipient: string; sender: string; asset: string; value: string; block_number: string; tx_hash: string }[]
  >(
    `select p.recipient, p.sender, p.asset, p.value::text, p.block_number, p.tx_hash from first_quote_payments p
      where p.recipient = any($1::text[])
        and not exists (select 1 from wallets w where w.address = p.recipient)
        and not exists (select 1 from wallet_funding f where f.wallet = p.recipient)
      order by p.recipient`,
    [candidates],
    PREPARED,
  );
  return found
    .filter((p) => Number(p.block_number) <= firstSeen.get(p.recipient)!)
    .map((p) => ({
      wallet: p.recipient,
      funder: p.sender,
      block: Number(p.block_number),
      txHash: p.tx_hash,
      value: BigInt(p.value),
      asset: p.asset,
    }));
}
