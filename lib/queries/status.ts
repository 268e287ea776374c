import { asc } from "drizzle-orm";
import type { Db } from "@/db/client";
import { syncState } from "@/db/schema";
import { config } from "@/lib/config";
import type { StatusReason } from "@/lib/domain/vocab";
import { type ChainHead, probeChainHead } from "./chain-head";
import { quarantineCount } from "./quarantine";

/** A worker that has not written a heartbeat for this long is reported as down. */
const HEARTBEAT_STALE_MS = 30_000;
/** A head read longer ago than this is no longer taken for the chain's head. */
const HEAD_STALE_MS = 30_000;
/** Indexing cycles failed in a row before the status says the loop is failing. */
const FAILING_AFTER = 3;

export type Status = {
  chain_id: number | null;
  /** The chain's head from a probe independent of indexing; the last one known when it is stale. */
  head_block: number | null;
  head_block_time: string | null;
  /** When the head was read; older than HEAD_STALE_MS, the lag is unknown (null). */
  head_checked_at: string | null;
  indexed_block: number | null;
  indexed_block_time: string | null;
  lag_blocks: number | null;
  lag_seconds: number | null;
  healthy: boolean;
  reasons: StatusReason[];
  message: string;
  quarantined_entities: number;
  worker: { alive: boolean; heartbeat_at: string | null; consecutive_failures: number; last_failure_at: string | null };
  thresholds: { max_lag_seconds: number; max_quarantined_entities: number; worker_timeout_seconds: number };
};

const iso = (d: Date | null) => d?.toISOString() ?? null;

export type Lag = { blocks: number | null; seconds: number | null };

/** A block: its number and time. */
type BlockAt = Pick<ChainHead, "number" | "timestamp">;

/** How far the indexed block trails the chain's head: unknown (null) without a head, seconds also without its time. */
export function lagBehind(head: BlockAt | null, indexedBlock: number | null, indexedTime: Date | null): Lag {
  return {
    blocks: head ? Math.max(0, head.number - (indexedBlock ?? 0)) : null,
    seconds: head && indexedTime ? Math.max(0, head.timestamp - indexedTime.getTime() / 1000) : null,
  };
}

/**
 * Whether data that far behind the chain's head is behind it: past STATUS_MAX_LAG_SECONDS (any
 * block, when the seconds are unknown). /v1/status reports it as `lagging`; alerts do not fire
 * while it holds (worker/alerts/evaluate.ts).
 */
export function isLagging(lag: Lag): boolean {
  if (lag.seconds !== null) return lag.seconds > config.STATUS_MAX_LAG_SECONDS;
  return lag.blocks !== null && lag.blocks > 0;
}

/**
 * How fresh and trustworthy the data is. The head comes from the worker's head probe, which runs
 * on its own timer (worker/indexer/head.ts), so a failing indexing loop shows as a growing lag;
 * when that probe has gone quiet (the worker is down or cannot reach the node) and RPC_URL is
 * set, the web app reads the head itself. With no recent head the lag is unknown, never 0.
 * `now` is the request's time: liveness and the age of a head are measured against the present.
 */
export async function getStatus(db: Db, now: Date): Promise<Status> {
  const [[s], quarantined] = await Promise.all([
    db.select().from(syncState).orderBy(asc(syncState.chainId)).limit(1),
    quarantineCount(db),
  ]);
  const age = (d: Date | null | undefined) => (d ? now.getTime() - d.getTime() : Number.POSITIVE_INFINITY);
  const alive = age(s?.heartbeatAt) < HEARTBEAT_STALE_MS;

  let head: ChainHead | null =
    s?.headBlock != null && s.headBlockTime && s.headCheckedAt && age(s.headCheckedAt) < HEAD_STALE_MS
      ? { number: s.headBlock, timestamp: s.headBlockTime.getTime() / 1000, checkedAt: s.headCheckedAt.getTime() }
      : null;
  if (!head && config.RPC_URL) head = await probeChainHead(config.RPC_URL, now);

  const indexedBlock = s?.indexedBlockHash ? s.indexedBlock : null;
  const indexedTime = s?.indexedBlockTime ?? null;
  const lag = lagBehind(head, indexedBlock, indexedTime);
  const failures = s?.consecutiveFailures ?? 0;

  const reasons: StatusReason[] = [];
  if (!alive) reasons.push("worker_down");
  // A live worker whose probe is quiet cannot reach the node; a dead one says nothing either way.
  if (!head && (alive || config.RPC_URL)) reasons.push("chain_unreachable");
  if (isLagging(lag)) reasons.push("lagging");
  if (alive && failures >= FAILING_AFTER) reasons.push("indexing_failing");
  if (quarantined > config.STATUS_MAX_QUARANTINED) reasons.push("quarantine");

  const status: Status = {
    chain_id: s?.chainId ?? null,
    head_block: head?.number ?? s?.headBlock ?? null,
    head_block_time: head ? new Date(head.timestamp * 1000).toISOString() : iso(s?.headBlockTime ?? null),
    head_checked_at: head ? new Date(head.checkedAt).toISOString() : iso(s?.headCheckedAt ?? null),
    indexed_block: indexedBlock,
    indexed_block_time: iso(indexedTime),
    lag_blocks: lag.blocks,
    lag_seconds: lag.seconds === null ? null : Math.round(lag.seconds),
    healthy: reasons.length === 0,
    reasons,
    message: "",
    quarantined_entities: quarantined,
    worker: {
      alive,
      heartbeat_at: iso(s?.heartbeatAt ?? null),
      consecutive_failures: failures,
      last_failure_at: iso(s?.lastFailureAt ?? null),
    },
    thresholds: {
      max_lag_seconds: config.STATUS_MAX_LAG_SECONDS,
      max_quarantined_entities: config.STATUS_MAX_QUARANTINED,
      worker_timeout_seconds: HEARTBEAT_STALE_MS / 1000,
    },
  };
  status.message = statusMessage(status, now);
  return status;
}

/** "45 s", "3 min", "2 h", "4 d": how long, for people. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 120) return `${s} s`;
  if (s < 7_200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3_600)} h`;
  return `${Math.round(s / 86_400)} d`;
}

const blocks = (n: number) => `${n.toLocaleString("en-US")} block${n === 1 ? "" : "s"}`;

/** One or two sentences saying what the status means: the first reason leads. */
export function statusMessage(s: Status, now: Date): string {
  const since = (isoTime: string | null) =>
    isoTime ? `${formatDuration((now.getTime() - Date.parse(isoTime)) / 1000)} ago` : "never";
  const parts: string[] = [];
  for (const reason of s.reasons) {
    if (reason === "worker_down") {
      parts.push(
        s.worker.heartbeat_at
          ? `The indexer is not running (last seen ${since(s.worker.heartbeat_at)}).`
          : "The indexer has not started.",
      );
    } else if (reason === "chain_unreachable") {
      parts.push(
        `The chain's head could not be read (last read ${since(s.head_checked_at)}), ` +
          "so how far behind the data is is unknown.",
      );
    } else if (reason === "lagging") {
      const seconds = s.lag_seconds === null ? "" : ` (${formatDuration(s.lag_seconds)})`;
      parts.push(`The data is ${blocks(s.lag_blocks ?? 0)}${seconds} behind the chain's head.`);
    } else if (reason === "indexing_failing") {
      parts.push(`The last ${s.worker.consecutive_failures} indexing attempts failed; the indexer keeps retrying.`);
    } else {
      parts.push(
        `${s.quarantined_entities} tokens, pools or logs are quarantined (more than ` +
          `${s.thresholds.max_quarantined_entities}).`,
      );
    }
  }
  if (s.reasons.includes("worker_down") && s.indexed_block !== null) {
    parts.push(
      `Data is as of block ${s.indexed_block.toLocaleString("en-US")}` +
        `${s.indexed_block_time ? ` (${since(s.indexed_block_time)})` : ""}.`,
    );
  }
  if (parts.length) return parts.join(" ");
  return s.indexed_block === null
    ? "Nothing is indexed yet."
    : `Indexed to block ${s.indexed_block.toLocaleString("en-US")}, ` +
        `${blocks(s.lag_blocks ?? 0)} behind the chain's head.`;
}
