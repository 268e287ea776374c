import type { Sql } from "@/db/client";
import { log } from "@/lib/log";
import { sleep } from "../sleep";
import { type ProbedHead, writeHeartbeat } from "./checkpoint";
import type { RawBlock, Rpc } from "./rpc";

/** The node's newest block, number and time, in one request. */
export async function readHead(rpc: Rpc): Promise<ProbedHead> {
  const checkedAt = Date.now();
  const block = await rpc.call<RawBlock | null>("eth_getBlockByNumber", ["latest", false]);
  if (!block) throw new Error("the node has no latest block");
  return { number: Number(block.number), timestamp: Number(block.timestamp), checkedAt };
}

export type HeadProbeOptions = {
  sql: Sql;
  /** A client of its own, with a short timeout and few retries: a slow node must not stall the probe. */
  rpc: Rpc;
  chainId: number;
  intervalMs: number;
  signal: AbortSignal;
};

/**
 * The worker's head probe: on its own timer, independent of the indexing loop, reads the chain's
 * head and writes it with the heartbeat, so GET /v1/status measures the lag against the real head
 * even while every indexing cycle fails (or hangs). A node that does not answer leaves the last
 * head in place with its time (the status route then says the head is unknown); the heartbeat
 * still goes out, since the worker itself is alive. Each change between reachable and not is
 * logged once. Resolves when `signal` aborts.
 */
export async function runHeadProbe({ sql, rpc, chainId, intervalMs, signal }: HeadProbeOptions): Promise<void> {
  let reachable: boolean | null = null;
  while (!signal.aborted) {
    let head: ProbedHead | null = null;
    try {
      head = await readHead(rpc);
      if (reachable === false) log.info("head probe: the node answers again", { head: head.number });
      reachable = true;
    } catch (err) {
      if (signal.aborted) break;
      if (reachable !== false)
        log.warn("head probe: the node does not answer", { error: err instanceof Error ? err.message : String(err) });
      reachable = false;
    }
    try {
      await writeHeartbeat(sql, chainId, head);
    } catch (err) {
      // The database is down: the indexing loop reports that; the probe just keeps trying.
      if (!signal.aborted)
        log.debug("head probe: heartbeat not written", { error: err instanceof Error ? err.message : String(err) });
    }
    await sleep(intervalMs, signal);
  }
}
