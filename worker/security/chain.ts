/**
 * The security checks' chain reads: eth_call and storage at one block, each call with a gas bound
 * (a token whose code loops runs out of gas and answers a revert), through an Rpc with a short
 * timeout and few attempts, so a hostile or slow token costs seconds, never the worker's cycle.
 * A revert is an answer (`Reverted`), not an error; garbage is the caller's to refuse.
 */
import type { Hex } from "viem";
import { JsonRpcError, type Rpc, toHex } from "@/worker/indexer/rpc";

/** Gas for a view call and for the trade probe's buy and sell. */
const VIEW_GAS = 1_000_000;
export const PROBE_GAS = 8_000_000;
/** Return data longer than this is garbage for any view the checks make. */
const MAX_RETURN_BYTES = 4_096;

export class Reverted {
  constructor(readonly message: string) {}
}

export type Override = { code?: Hex; balance?: Hex; stateDiff?: Record<Hex, Hex> };
export type CallSpec = { to: string; data: Hex; from?: string; gas?: number; overrides?: Record<string, Override> };

export class ChainAt {
  constructor(
    readonly rpc: Rpc,
    readonly block: number,
  ) {}

  /** The calls in one batch; each answers its return data, or `Reverted` (also for garbage-sized data). */
  async calls(specs: CallSpec[]): Promise<(Hex | Reverted)[]> {
    const answers = await this.rpc.batchSettled<Hex>(
      specs.map((s) => ({
        method: "eth_call",
        params: [
          { to: s.to, data: s.data, from: s.from, gas: toHex(s.gas ?? VIEW_GAS) },
          toHex(this.block),
          ...(s.overrides ? [s.overrides] : []),
        ],
      })),
    );
    return answers.map((a) => {
      if (a instanceof JsonRpcError) return new Reverted(a.message);
      if (typeof a !== "string" || a.length > 2 + 2 * MAX_RETURN_BYTES) return new Reverted("oversized answer");
      return a;
    });
  }

  call = async (spec: CallSpec) => (await this.calls([spec]))[0];

  code = (address: string) => this.rpc.call<Hex>("eth_getCode", [address, toHex(this.block)]);

  storage = (address: string, slot: Hex) => this.rpc.call<Hex>("eth_getStorageAt", [address, slot, toHex(this.block)]);
}

/** A 32-byte word as an address, or undefined when its high 12 bytes are not zero (not an address). */
export function wordAddress(word: Hex | Reverted): string | undefined {
  if (typeof word !== "string" || word.length !== 66 || !/^0x0{24}[0-9a-f]{40}$/i.test(word)) return undefined;
  return `0x${word.slice(26).toLowerCase()}`;
}

/** A 32-byte word as an unsigned integer, or undefined when it is not one word. */
export function wordUint(word: Hex | Reverted): bigint | undefined {
  if (typeof word !== "string" || word.length !== 66) return undefined;
  return BigInt(word);
}
