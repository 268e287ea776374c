import { insertRows, PREPARED } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { firstQuotePayments } from "@/db/schema";
import { decodeLog } from "../indexer/decode";
import type { Funding, RangeData } from "../indexer/fetch";
import { type RawLog, type Rpc, toHex } from "../indexer/rpc";
import type { Tx } from "../indexer/sql";
import type { ChainState } from "../indexer/state";
import type { RangeRows } from "../indexer/transform";
import { knownContracts } from "../profiles/contracts";

const ZERO = "0x0000000000000000000000000000000000000000";
/** EIP-7702: an account whose code is a delegation is still an externally owned account. */
const DELEGATION = "0xef0100";

/** A quote-token transfer from an account without code: a candidate funding edge. */
export type QuotePayment = {
  recipient: string;
  sender: string;
  asset: string;
  block: number;
  logIndex: number;
  txHash: string;
  value: bigint;
};

/**
 * Of a range's quote-token Transfer logs (WETH, stablecoins), each recipient's first payment from
 * an account without code at that block. A sender with code (a pool, a router, a bridge) is a
 * swap or a withdrawal, not a funder; pools and tokens the state knows are contracts without
 * asking, and so is a sender once seen with code (an account that sends tokens before it has
 * code is an externally owned one, and an EIP-7702 delegation is not counted as code). Payments to a
 * known pool or token are not kept: they fund no wallet. The answer depends only on the chain,
 * never on the range boundaries or on what this process saw before.
 */
export async function firstPaymentsOf(rpc: Rpc, state: ChainState, logs: RawLog[]): Promise<QuotePayment[]> {
  const indexedAt = (address: string, block: number) =>
    (state.pools.get(address)?.createdBlock ?? Infinity) <= block ||
    (state.tokens.get(address)?.createdBlock ?? Infinity) <= block;
  const candidates: QuotePayment[] = [];
  for (const raw of logs) {
    const l = raw.removed ? null : decodeLog(raw);
    if (l?.kind !== "transfer" || !state.isQuote(l.address)) continue;
    if (
      l.from === ZERO ||
      l.to === ZERO ||
      l.from === l.to ||
      l.value === 0n ||
      indexedAt(l.to, l.block) ||
      indexedAt(l.from, l.block) ||
      state.withCode.has(l.from)
    )
      continue;
    candidates.push({
      recipient: l.to,
      sender: l.from,
      asset: l.address,
      block: l.block,
      logIndex: l.logIndex,
      txHash: l.txHash,
      value: l.value,
    });
  }
  candidates.sort((a, b) => a.block - b.block || a.logIndex - b.logIndex);
  const byRecipient = new Map<string, QuotePayment[]>();
  for (const c of candidates) {
    const list = byRecipient.get(c.recipient);
    if (list) list.push(c);
    else byRecipient.set(c.recipient, [c]);
  }
  // Each recipient's payments in order until one from an account without code: rounds that read
  // the code of each one's next sender once (code does not come and go, see above).
  const first: QuotePayment[] = [];
  let open = [...byRecipient.values()];
  while (open.length > 0) {
    const heads = open.map((list) => list[0]);
    const checks = [...new Map(heads.filter((c) => !state.withCode.has(c.sender)).map((c) => [c.sender, c])).values()];
    const codes = await rpc.batch<string>(
      checks.map((c) => ({ method: "eth_getCode", params: [c.sender, toHex(c.block)] })),
    );
    checks.forEach((c, i) => {
      const code = codes[i] ?? "0x";
      if (code !== "0x" && code !== "" && !code.startsWith(DELEGATION)) state.withCode.add(c.sender);
    });
    const next: QuotePayment[][] = [];
    for (const list of open) {
      if (!state.withCode.has(list[0].sender)) first.push(list[0]);
      else {
        const rest = list.slice(1).filter((c) => !state.withCode.has(c.sender));
        if (rest.length > 0) next.push(rest);
      }
    }
    open = next;
  }
  return first;
}

/** Keeps each recipient's first payment: earlier ranges were written first, so an existing row stays. */
export async function recordQuotePayments(tx: Tx | Sql, payments: QuotePayment[]) {
  await insertRows(
    tx,
    firstQuotePayments,
    payments.map((p) => ({
      recipient: p.recipient,
      sender: p.sender,
      asset: p.asset,
      value: p.value,
      blockNumber: p.block,
      logIndex: p.logIndex,
      txHash: p.txHash,
    })),
    { onConflict: { target: ["recipient"], action: "nothing" } },
  );
}

/**
 * Funding edges from the quote tokens: for each wallet first seen in this range without a funder,
 * its first quote-token payment from an account without code, if that came no later than its first
 * event. That is how wallets are funded where native payments cannot all be read (a real chain:
 * only the blocks the indexer fetches are scanned), and it catches funders who pay in WETH or USDC
 * on any chain. The payments were recorded as their ranges passed (recordQuotePayments), this
 * range's included, so the edge is the same whatever the range boundaries.
 */
export async function quoteTokenFundings(
  tx: Tx | Sql,
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
