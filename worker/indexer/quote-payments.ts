import { decodeLog } from "./decode";
import type { QuotePayment } from "./range";
import { type RawLog, type Rpc, toHex } from "./rpc";
import type { ChainState } from "./state";

const ZERO = "0x0000000000000000000000000000000000000000";
/** EIP-7702: an account whose code is a delegation is still an externally owned account. */
const DELEGATION = "0xef0100";

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
