/**
 * The journal of outside transactions: each transaction an outside client got mined while the
 * simulator drove the chain, with its block, so that a chain rebuilt from the simulator's recipe
 * can replay it in the same place. JSON lines in `<dataDir>/devchain/outside-txs.jsonl`, a header
 * then one line per transaction, appended and flushed to disk before anyone can read the block
 * (format in devchain/README.md).
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import path from "node:path";
import type { Hex } from "viem";
import type { RpcCall } from "./rpc";

export interface JournalHeader {
  journal: "devchain outside transactions";
  version: 1;
  chainId: number;
  genesisHash: Hex;
}

/** eth_sendTransaction fields as Hardhat filled them in: sent again, Hardhat signs them to the same
 * hash (deterministic signatures for its unlocked accounts, fixed ones for impersonated senders). */
export type SendFields = Record<string, unknown> & { from: Hex; nonce: Hex };

/** How to send a transaction again and get the same hash: its signed bytes, or its fields. */
export type Resend = { hash: Hex } & ({ raw: Hex } | { tx: SendFields });

export type OutsideTx = Resend & { block: number; index: number };

export function journalFile(dataDir: string): string {
  return path.join(dataDir, "devchain", "outside-txs.jsonl");
}

export function resendCall(t: Resend): RpcCall {
  return "raw" in t
    ? { method: "eth_sendRawTransaction", params: [t.raw] }
    : { method: "eth_sendTransaction", params: [t.tx] };
}

/** The fields of a pending transaction (eth_getTransactionByHash) that eth_sendTransaction takes. */
export function sendFields(tx: Record<string, unknown>): SendFields {
  const fields: Record<string, unknown> = {
    from: tx.from,
    nonce: tx.nonce,
    gas: tx.gas,
    value: tx.value,
    data: tx.input,
    type: tx.type,
  };
  if (tx.to) fields.to = tx.to;
  if (tx.chainId) fields.chainId = tx.chainId;
  if (tx.accessList) fields.accessList = tx.accessList;
  // Dynamic-fee transactions report an effective gasPrice too, which eth_sendTransaction refuses beside maxFeePerGas.
  if (tx.maxFeePerGas !== undefined)
    Object.assign(fields, { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas });
  else fields.gasPrice = tx.gasPrice;
  return fields as SendFields;
}

/** Reads a journal; throws with the line at fault if it is not one. */
export function readJournal(file: string): { header: JournalHeader; entries: OutsideTx[] } {
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  const parsed = lines.map((line, i) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`${file}:${i + 1}: not JSON`);
    }
  });
  const [header, ...entries] = parsed;
  if (header?.journal !== "devchain outside transactions" || header.version !== 1)
    throw new Error(`${file}:1: not a version 1 journal header`);
  entries.forEach((e, i) => {
    const valid =
      typeof e.hash === "string" &&
      Number.isInteger(e.block) &&
      Number.isInteger(e.index) &&
      (typeof e.raw === "string" || (typeof e.tx === "object" && e.tx !== null));
    if (!valid) throw new Error(`${file}:${i + 2}: not a recorded transaction`);
  });
  return { header: header as unknown as JournalHeader, entries: entries as unknown as OutsideTx[] };
}

export class Journal {
  private constructor(
    private readonly file: string,
    private readonly header: JournalHeader,
    readonly entries: OutsideTx[],
  ) {}

  /**
   * The journal of the chain `header` describes. One left by another chain (another genesis) or
   * unreadable is renamed aside, never deleted, and a notice says so.
   */
  static open(
    file: string,
    header: Omit<JournalHeader, "journal" | "version">,
  ): { journal: Journal; notices: string[] } {
    const full: JournalHeader = { journal: "devchain outside transactions", version: 1, ...header };
    if (!existsSync(file)) return { journal: new Journal(file, full, []), notices: [] };
    let problem: string;
    try {
      const read = readJournal(file);
      if (read.header.chainId === full.chainId && read.header.genesisHash === full.genesisHash) {
        return { journal: new Journal(file, full, read.entries), notices: [] };
      }
      problem = `it belongs to another chain (genesis ${read.header.genesisHash})`;
    } catch (e) {
      problem = (e as Error).message;
    }
    const aside = `${file}.set-aside-${Date.now()}`;
    renameSync(file, aside);
    return {
      journal: new Journal(file, full, []),
      notices: [`outside transactions journal ${file} not replayed: ${problem}; moved to ${aside}`],
    };
  }

  /** Recorded transactions of `block`, in block order. */
  inBlock(block: number): OutsideTx[] {
    return this.entries.filter((e) => e.block === block).sort((a, b) => a.index - b.index);
  }

  blocks(): number[] {
    return [...new Set(this.entries.map((e) => e.block))].sort((a, b) => a - b);
  }

  /** Appends and flushes to disk before returning (the chain itself lives only in memory). */
  append(entries: OutsideTx[]): void {
    if (entries.length === 0) return;
    const fresh = !existsSync(this.file);
    if (fresh) mkdirSync(path.dirname(this.file), { recursive: true });
    const lines = [...(fresh ? [this.header] : []), ...entries].map((e) => `${JSON.stringify(e)}\n`).join("");
    const fd = openSync(this.file, "a");
    try {
      writeSync(fd, lines);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.entries.push(...entries);
  }
}
