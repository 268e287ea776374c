/**
 * What the dev chain's node (node-server.ts) and the simulator driving it say to each other beyond
 * standard JSON-RPC. While the simulator is attached it alone mines and sets state; every other
 * client is an outside client, which may read and send transactions but not control the chain.
 */
import type { Hex } from "viem";

/** Marks the simulator's requests; any request without it is an outside client's. A marker between
 * cooperating processes on the loopback, not a credential. */
export const SIMULATOR_HEADER = "x-devchain-simulator";

/** Methods only the simulator may call. */
export const NODE_METHODS = {
  /** Takes the chain over (outside clients may then only read and send transactions); returns
   * AttachResult. */
  attach: "devchain_attach",
  /** Puts the outside transactions waiting outside the pool into it, after everything sent so
   * far: the next mining call mines them. */
  admit: "devchain_admit",
  /** Params [block]: sends again the outside transactions the journal recorded in that block, to be
   * mined by the next mining call. */
  replay: "devchain_replay",
  /** Returns OutsideReport: outside transactions mined since the last report, and notices. */
  report: "devchain_report",
  /** Hands the chain back: any client may mine and change state again. */
  release: "devchain_release",
} as const;

export interface AttachResult {
  /** Blocks the journal has outside transactions in, ascending: the simulator replays them there. */
  recordedBlocks: number[];
  notices: string[];
}

export interface OutsideReport {
  /** Outside transactions admitted or replayed and mined since the last report. */
  mined: { hash: Hex; block: number; index: number }[];
  /** What went wrong with outside transactions (dropped, not replayable), one line each. */
  notices: string[];
}
