import { z } from "zod";
import { STATUS_REASONS } from "@/lib/domain/vocab";

const time = z.string().nullable();

export const status = z
  .object({
    chain_id: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Chain id the worker indexes; null before it first wrote it" }),
    head_block: z.number().int().nullable().meta({
      description:
        "The chain's head, read by a probe independent of indexing; the last one known when head_checked_at is stale",
    }),
    head_block_time: time.meta({ description: "Timestamp of head_block" }),
    head_checked_at: time.meta({ description: "When the head was read" }),
    indexed_block: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Last block indexed (data responses carry it as X-Indexed-Block)" }),
    indexed_block_time: time.meta({ description: "Timestamp of indexed_block: the time windows end at" }),
    lag_blocks: z
      .number()
      .int()
      .nullable()
      .meta({ description: "head_block - indexed_block; null when the head is unknown" }),
    lag_seconds: z
      .number()
      .nullable()
      .meta({ description: "Time between the indexed block and the head; null when unknown" }),
    healthy: z.boolean().meta({ description: "False when any reason applies" }),
    reasons: z.array(z.enum(STATUS_REASONS)).meta({
      description:
        "worker_down: no heartbeat from the indexer; " +
        "chain_unreachable: the head could not be read lately (lag unknown); " +
        "lagging: further behind the head than thresholds.max_lag_seconds; " +
        "indexing_failing: indexing cycles keep failing; " +
        "quarantine: more quarantined entities than thresholds.max_quarantined_entities",
    }),
    message: z.string().meta({ description: "What the status means, in words" }),
    quarantined_entities: z
      .number()
      .int()
      .meta({ description: "Tokens, pools and logs the indexer set aside as unindexable" }),
    worker: z
      .object({
        alive: z.boolean().meta({ description: "A heartbeat within thresholds.worker_timeout_seconds" }),
        heartbeat_at: time.meta({ description: "The worker's last heartbeat" }),
        consecutive_failures: z.number().int().meta({ description: "Indexing cycles failed in a row" }),
        last_failure_at: time.meta({ description: "When an indexing cycle last failed" }),
      })
      .meta({ description: "The indexing worker" }),
    thresholds: z
      .object({
        max_lag_seconds: z.number().meta({ description: "STATUS_MAX_LAG_SECONDS" }),
        max_quarantined_entities: z.number().int().meta({ description: "STATUS_MAX_QUARANTINED" }),
        worker_timeout_seconds: z.number().meta({ description: "A worker silent longer is down" }),
      })
      .meta({ description: "The limits healthy is judged by" }),
  })
  .meta({ id: "Status" });
