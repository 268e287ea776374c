import { formatInteger } from "../format";
import type { IndexerStatus } from "../freshness";
import { RelativeTime } from "../relative-time";
import { Badge } from "../ui/badge";
import { panelClass } from "../ui/surfaces";

export type { IndexerStatus };

/**
 * How fresh the data is: the indexer's state, the indexed block against the chain's head (read
 * independently of indexing; "unknown" when nothing could read it lately), the data's time and
 * the worker's heartbeat.
 */
export function IndexerStatusBar({ status }: { status: IndexerStatus }) {
  const item = "flex items-center gap-1.5";
  const failing = status.reasons.includes("indexing_failing");
  return (
    <dl className={`flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 text-sm ${panelClass}`}>
      <div className={item}>
        <dt className="text-zinc-500 dark:text-zinc-400">Indexer</dt>
        <dd>
          {!status.worker.alive ? (
            <Badge tone="danger">not running</Badge>
          ) : failing ? (
            <Badge tone="warn" title={`${status.worker.consecutive_failures} failed attempts in a row`}>
              failing
            </Badge>
          ) : (
            <Badge tone="good">running</Badge>
          )}
        </dd>
      </div>
      <div className={item}>
        <dt className="text-zinc-500 dark:text-zinc-400">Indexed block</dt>
        <dd className="tabular-nums">{status.indexed_block === null ? "—" : formatInteger(status.indexed_block)}</dd>
      </div>
      <div className={item}>
        <dt className="text-zinc-500 dark:text-zinc-400">Chain head</dt>
        <dd className="tabular-nums">{status.head_block === null ? "unknown" : formatInteger(status.head_block)}</dd>
      </div>
      <div className={item}>
        <dt className="text-zinc-500 dark:text-zinc-400">Behind head</dt>
        <dd
          className="tabular-nums"
          title={status.lag_blocks === null ? "The chain's head could not be read lately" : undefined}
        >
          {status.lag_blocks === null ? "unknown" : `${formatInteger(status.lag_blocks)} blocks`}
          {status.lag_seconds !== null && ` (${formatInteger(status.lag_seconds)} s)`}
          {status.reasons.includes("lagging") && (
            <>
              {" "}
              <Badge tone="warn">lagging</Badge>
            </>
          )}
        </dd>
      </div>
      <div className={item}>
        <dt className="text-zinc-500 dark:text-zinc-400">Data as of</dt>
        <dd>
          <RelativeTime iso={status.indexed_block_time ?? null} />
        </dd>
      </div>
      <div className={item}>
        <dt className="text-zinc-500 dark:text-zinc-400">Heartbeat</dt>
        <dd>
          <RelativeTime iso={status.worker.heartbeat_at} />
        </dd>
      </div>
      {status.quarantined_entities > 0 && (
        <div className={item}>
          <dt className="text-zinc-500 dark:text-zinc-400">Quarantined</dt>
          <dd className="tabular-nums">{formatInteger(status.quarantined_entities)}</dd>
        </div>
      )}
    </dl>
  );
}
