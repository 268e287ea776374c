import { ChainMovedError } from "./fetch";
import { type Rpc, toHex } from "./rpc";

/** An eth_call request: the contract and the calldata. */
export type Call = { to: string; data: string };

/**
 * eth_call answers at one block, each call asked once: a range written again (its retries and the
 * trials that trace a failure to one token, quarantine.ts) reads what it asked before instead of
 * asking the node again. The block's hash is checked after each batch, so answers from a branch
 * that a reorg replaced are never used. Each answer is the call's result, or the node's error
 * for a call that reverted.
 */
export class CallsAtBlock {
  private readonly answers = new Map<string, unknown>();

  constructor(
    private readonly rpc: Rpc,
    private readonly block: { number: number; hash: string },
  ) {}

  async read(calls: Call[]): Promise<unknown[]> {
    const key = (c: Call) => `${c.to}:${c.data}`;
    const missing = [...new Map(calls.filter((c) => !this.answers.has(key(c))).map((c) => [key(c), c])).values()];
    if (missing.length > 0) {
      const { number, hash } = this.block;
      const got = await this.rpc.batchSettled<string>(
        missing.map((c) => ({ method: "eth_call", params: [c, toHex(number)] })),
      );
      const [onNode] = await this.rpc.getBlocks([number], false);
      if (onNode?.hash !== hash) throw new ChainMovedError(`block ${number} changed while its balances were read`);
      missing.forEach((c, i) => this.answers.set(key(c), got[i]));
    }
    return calls.map((c) => this.answers.get(key(c)));
  }
}
