import { log } from "@/lib/log";

/**
 * How a backfill range asks for the logs of what it watches: by address (a request per chunk of
 * watched addresses, the node filtering) or by topic (one request for every contract's logs with
 * our topics, filtered in the process, as a live range is read). By address pays a request per
 * chunk and every address's text however little moved, which at many tokens is most of a range's
 * reads; by topic pays for the other contracts' logs it carries. Which is cheaper is the chain's
 * to say, so the share of a topic read that is ours is measured, never assumed: on each range read
 * by topic, and by a probe of a few blocks while reading by address. A chain where strangers emit
 * our topics by the million goes on being read by address.
 */

/** What one request for logs costs, in logs read: its round trip and the node's pass over the blocks. */
const REQUEST_COST = 1_000;
/** What one address of a filter costs, in logs read: its 42 characters against a log's 500 or so. */
const ADDRESS_COST = 0.1;
/** Below this cost of reading by address beyond the logs themselves, a topic read could save too little to probe for. */
const PROBE_WORTH = 2 * REQUEST_COST;
/** Logs of ours a probe's blocks are chosen to hold: enough for a share, few next to a range's. */
const PROBE_OURS = 1_000;
/** Ranges read by address before the share is probed again: what a chain carries changes. */
const PROBE_EVERY = 32;

/** How one range reads its watched logs, and where it reports what a topic read carried. */
export type LogReadPlan = {
  byTopic: boolean;
  /** Logs the range's topic read returned (0 reading by address): what sizes the next range. */
  read: number;
  /** Reading by address: also read [from, probeTo] by topic, to measure the share. */
  probeTo: number | null;
  /** A topic read (the range's or a probe) returned `read` logs, `ours` of them of watched addresses. */
  measured(read: number, ours: number): void;
};

/** A range read by address, measuring nothing (a live range reads by topic anyway). */
export const BY_ADDRESS: LogReadPlan = { byTopic: false, read: 0, probeTo: null, measured: () => {} };

export class LogReads {
  /** Of the logs a topic read returns, the share of watched addresses (null: not measured yet). */
  private share: number | null = null;
  private rangesSinceMeasured = 0;
  private byTopic = false;

  constructor(private readonly addressChunkSize: number) {}

  /**
   * The plan for [from, to], with `watched` addresses and about `ours` logs of theirs expected
   * (the last range's density).
   */
  plan(from: number, to: number, watched: number, ours: number): LogReadPlan {
    const overhead = Math.ceil(watched / this.addressChunkSize) * REQUEST_COST + watched * ADDRESS_COST;
    const byTopic = this.share !== null && this.share > 0 && ours / this.share < ours + overhead;
    if (byTopic !== this.byTopic) {
      this.byTopic = byTopic;
      log.info(`backfill reads logs by ${byTopic ? "topic" : "address"}`, { from, watched, share: this.share });
    }
    if (!byTopic) this.rangesSinceMeasured++;
    const due = this.share === null || this.rangesSinceMeasured > PROBE_EVERY;
    const probeBlocks = ours > 0 ? Math.ceil((PROBE_OURS * (to - from + 1)) / ours) : to - from + 1;
    const plan: LogReadPlan = {
      byTopic,
      read: 0,
      probeTo: !byTopic && due && overhead >= PROBE_WORTH ? Math.min(to, from + probeBlocks - 1) : null,
      measured: (read, found) => {
        if (byTopic) plan.read = read;
        if (read === 0) return;
        this.share = found / read;
        this.rangesSinceMeasured = 0;
      },
    };
    return plan;
  }
}
