import { PREPARED } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { decodeLog, TOPICS } from "../indexer/decode";
import type { Funding, RangeData } from "../indexer/fetch";
import { type Rpc, toHex } from "../indexer/rpc";
import type { Tx } from "../indexer/sql";
import type { ChainState } from "../indexer/state";
import type { RangeRows } from "../indexer/transform";
import { knownContracts } from "../profiles/contracts";

/** Wallets per eth_getLogs topic filter (providers cap the length of a topic's OR list). */
const WALLETS_PER_REQUEST = 100;
const ZERO = "0x0000000000000000000000000000000000000000";
const topicOf = (a: string) => `0x${a.slice(2).padStart(64, "0")}`;

/**
 * Funding edges from the quote tokens (WETH and stablecoins): for each wallet first seen in this
 * range, the first transfer of a quote token it received from an externally owned account, from
 * the profile's start block up to its first event. That is how wallets are funded where native
 * payments cannot all be read (a real chain: only the blocks the indexer fetches are scanned),
 * and it catches funders who pay in WETH or USDC on any chain. A sender with code (a pool, a
 * router, a bridge) is a swap or a withdrawal, not a funder. Bounded by the first event, the
 * answer is the same whatever the range boundaries, so restarts and reorgs find the same edges.
 */
export async function quoteTokenFundings(tx: Tx | Sql, rpc: Rpc, state: ChainState, data: RangeData, rows: RangeRows): Promise<Funding[]> {
  const firstSeen = new Map<string, number>();
  for (const e of rows.events) {
    for (const w of e.to ? [e.wallet, e.to] : [e.wallet]) if (!firstSeen.has(w) || firstSeen.get(w)! > e.block) firstSeen.set(w, e.block);
  }
  const skip = new Set([ZERO, ...knownContracts(state.profile).map((c) => c.address), ...data.fundings.map((f) => f.wallet)]);
  const candidates = [...firstSeen.keys()].filter((w) => !skip.has(w) && !state.nonHolders.has(w) && !state.tokens.has(w));
  if (candidates.length === 0) return [];
  const known = await tx.unsafe<{ address: string }[]>(
    `select address from wallets where address = any($1::text[]) union select wallet from wallet_funding where wallet = any($1::text[])`,
    [candidates],
    PREPARED,
  );
  const seen = new Set(known.map((k) => k.address));
  const fresh = candidates.filter((w) => !seen.has(w)).sort();
  if (fresh.length === 0) return [];

  const quotes = state.profile.quoteTokens.map((q) => q.address);
  const until = Math.max(...fresh.map((w) => firstSeen.get(w)!));
  const received = new Map<string, { from: string; asset: string; block: number; logIndex: number; txHash: string; value: bigint }[]>();
  for (let i = 0; i < fresh.length; i += WALLETS_PER_REQUEST) {
    const chunk = fresh.slice(i, i + WALLETS_PER_REQUEST);
    for (const raw of await rpc.getLogs(state.profile.startBlock, until, quotes, [TOPICS.transfer, null, chunk.map(topicOf)])) {
      const l = decodeLog(raw);
      if (raw.removed || l?.kind !== "transfer" || !quotes.includes(l.address) || !firstSeen.has(l.to)) continue;
      if (l.block > firstSeen.get(l.to)! || l.from === ZERO || l.from === l.to || l.value === 0n) continue;
      const list = received.get(l.to) ?? [];
      list.push({ from: l.from, asset: l.address, block: l.block, logIndex: l.logIndex, txHash: l.txHash, value: l.value });
      received.set(l.to, list);
    }
  }
  if (received.size === 0) return [];
  const senders = [...new Set([...received.values()].flat().map((r) => r.from))].sort();
  const codes = await rpc.batch<string>(senders.map((s) => ({ method: "eth_getCode", params: [s, toHex(until)] })));
  const contract = new Set(senders.filter((_, i) => codes[i] !== "0x" && codes[i] !== ""));
  const out: Funding[] = [];
  for (const [wallet, list] of [...received].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const first = list.filter((r) => !contract.has(r.from)).sort((a, b) => a.block - b.block || a.logIndex - b.logIndex)[0];
    if (first) out.push({ wallet, funder: first.from, block: first.block, txHash: first.txHash, value: first.value, asset: first.asset });
  }
  return out;
}
