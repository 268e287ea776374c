import { hashInts, mix32 } from "./rng";

/**
 * Deterministic addresses and hashes. The first 64 bits of each come from a Feistel network,
 * which is a bijection: distinct keys can never collide, so uniqueness holds by construction
 * rather than by luck; the remaining bits only make the value look random.
 */

export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
export const DEAD_ADDRESS = "0x000000000000000000000000000000000000dead";

/** Address namespaces: the kind is part of the Feistel key, so kinds never share an address. */
export const KIND = { wallet: 1, token: 2, pool: 3, funder: 4, exchange: 5, contract: 6 } as const;

/** Hex of every 16-bit value: tens of millions of hashes are formatted, two lookups per word. */
const HEX4 = Array.from({ length: 0x10000 }, (_, i) => i.toString(16).padStart(4, "0"));
const hex8 = (x: number) => HEX4[x >>> 16] + HEX4[x & 0xffff];

export class Ids {
  private readonly keys: number[];

  constructor(seed: number) {
    this.keys = [0, 1, 2, 3].map((r) => hashInts(seed, 0x1d5, r));
  }

  /** 64-bit bijection of (hi, lo), returned as two uint32 words. */
  private feistel(hi: number, lo: number): [number, number] {
    let l = hi >>> 0;
    let r = lo >>> 0;
    for (const k of this.keys) {
      const next = (l ^ mix32(r ^ k)) >>> 0;
      l = r;
      r = next;
    }
    return [l, r];
  }

  private words(hi: number, lo: number, count: number): string {
    const [a, b] = this.feistel(hi, lo);
    let out = hex8(a) + hex8(b);
    for (let i = 2; i < count; i++) out += hex8(mix32(a ^ mix32(b + i * 0x9e3779b9)));
    return out;
  }

  address(kind: number, index: number): string {
    return `0x${this.words(kind, index, 5)}`;
  }

  /** A transaction is identified by its block and the log index of its first log. */
  txHash(block: number, firstLogIndex: number): string {
    return `0x${this.words(block, firstLogIndex, 8)}`;
  }

  /** Log indexes stay below 100000, so 0xffffffff never meets a transaction key. */
  blockHash(block: number): string {
    return `0x${this.words(block, 0xffffffff, 8)}`;
  }
}
