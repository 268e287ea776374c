/**
 * The node's side of outside transactions (those not sent by the simulator). They enter the pool
 * as on any node, so their senders see them pending, but while the simulator drives the chain they
 * are mined only where it admits them: after its own transactions, in the last block of a request,
 * which it checks and adopts before computing the next block. So the simulator never computes a
 * transaction against a state it has not seen, and a rebuilt chain can put each one back in the
 * same place (it is recorded in the journal when mined).
 *
 * Around each simulator request, the outside transactions waiting in the pool are taken out
 * (hardhat_dropTransaction) and put back at its end, sent again in arrival order with the same
 * hash; one that no longer fits (the simulator used its sender's nonce) is dropped with a notice.
 */
import type { Hex } from "viem";
import type { OutsideReport } from "./node-protocol";
import { type Journal, type OutsideTx, type Resend, resendCall, sendFields } from "./outside-journal";

export type Request = (method: string, params: unknown[]) => Promise<unknown>;

interface Receipt {
  blockNumber: Hex;
  transactionIndex: Hex;
}

/** Admitted: new, to be recorded. Replayed: from the journal, recorded already. */
type InPool = Resend & { replayed: boolean };

export class OutsideLane {
  /** Attached: the simulator drives the chain. */
  driven = false;
  /** Outside transactions not mined yet, in arrival order. */
  private waiting: Resend[] = [];
  /** Admitted or replayed, to be mined by the next mining call. */
  private inPool: InPool[] = [];
  private report: OutsideReport = { mined: [], notices: [] };

  constructor(
    private readonly request: Request,
    readonly journal: Journal,
  ) {}

  /** An outside client's transaction entered the pool as `hash`. */
  async sent(method: string, params: unknown[], hash: Hex): Promise<void> {
    if (method === "eth_sendRawTransaction") this.waiting.push({ hash, raw: params[0] as Hex });
    else
      this.waiting.push({
        hash,
        tx: sendFields((await this.request("eth_getTransactionByHash", [hash])) as Record<string, unknown>),
      });
  }

  /** Before a simulator request: the waiting transactions leave the pool. */
  async beforeSimulator(): Promise<void> {
    const still: Resend[] = [];
    for (const t of this.waiting) if (await this.request("hardhat_dropTransaction", [t.hash])) still.push(t);
    this.waiting = still;
  }

  /** After a simulator request: the waiting transactions are back in the pool. */
  async afterSimulator(): Promise<void> {
    const waiting = this.waiting;
    this.waiting = [];
    for (const t of waiting) if (await this.resend(t, "was dropped")) this.waiting.push(t);
  }

  /** devchain_admit: the waiting transactions go into the pool now, after what the simulator sent. */
  async admit(): Promise<void> {
    const admitted = this.waiting;
    this.waiting = [];
    for (const t of admitted) if (await this.resend(t, "was dropped")) this.inPool.push({ ...t, replayed: false });
  }

  /** devchain_replay: the journal's transactions of `block` go into the pool now. */
  async replay(block: number): Promise<void> {
    for (const t of this.journal.inBlock(block)) {
      if (await this.resend(t, `recorded in block ${block} could not be replayed`))
        this.inPool.push({ ...t, replayed: true });
    }
  }

  /** After any mining call. Admitted transactions mined are recorded; the rest wait again. Without
   * a simulator attached, whoever mines takes the waiting transactions as on any node. */
  async afterMine(): Promise<void> {
    if (!this.driven && this.waiting.length > 0) {
      const mined = await this.receipts(this.waiting);
      this.waiting = this.waiting.filter((_, i) => !mined[i]);
    }
    if (this.inPool.length === 0) return;
    const inPool = this.inPool;
    this.inPool = [];
    const receipts = await this.receipts(inPool);
    const recorded: OutsideTx[] = [];
    for (const [i, t] of inPool.entries()) {
      const receipt = receipts[i];
      if (!receipt) {
        if (t.replayed) this.notice(`outside transaction ${t.hash} was replayed but not mined in its block`);
        else if (await this.request("hardhat_dropTransaction", [t.hash])) this.waiting.push(t);
        continue;
      }
      const mined = { hash: t.hash, block: Number(receipt.blockNumber), index: Number(receipt.transactionIndex) };
      this.report.mined.push(mined);
      const { replayed, ...resend } = t;
      if (!replayed) recorded.push({ ...resend, ...mined });
      else if (!this.journal.inBlock(mined.block).some((e) => e.hash === t.hash && e.index === mined.index)) {
        this.notice(
          `outside transaction ${t.hash} was replayed at index ${mined.index} of block ${mined.block}, ` +
            "not where it was recorded",
        );
      }
    }
    this.journal.append(recorded);
  }

  /** devchain_report: what happened to outside transactions since the last report. */
  takeReport(): OutsideReport {
    const report = this.report;
    this.report = { mined: [], notices: [] };
    return report;
  }

  notice(message: string): void {
    this.report.notices.push(message);
  }

  /** Sends `t` again; false, with a notice, if it cannot be (or would not be the same transaction). */
  private async resend(t: Resend, failure: string): Promise<boolean> {
    const { method, params } = resendCall(t);
    try {
      const hash = await this.request(method, params);
      if (hash === t.hash) return true;
      await this.request("hardhat_dropTransaction", [hash]);
      this.notice(`outside transaction ${t.hash} ${failure}: sent again it became ${String(hash)}`);
    } catch (e) {
      this.notice(`outside transaction ${t.hash} ${failure}: ${(e as Error).message}`);
    }
    return false;
  }

  private receipts(txs: Resend[]): Promise<(Receipt | null)[]> {
    return Promise.all(txs.map((t) => this.request("eth_getTransactionReceipt", [t.hash]) as Promise<Receipt | null>));
  }
}
