import type { getStatus } from "@/lib/queries/status";
import { formatInteger } from "../format";
import { RelativeTime } from "../relative-time";
import { Badge } from "../ui/badge";

export type IndexerStatus = Awaited<ReturnType<typeof getStatus>>;

/** How fresh the data is: the indexed block against the chain head, and the worker's heartbeat. */
export function IndexerStatusBar({ status }: { status: IndexerStatus }) {
  const item = "flex items-center gap-1.5";
  return (
    <dl className="flex flex-wrap items-center gap-x-6 gap-y-2 rounded-lg border border-zinc-200 bg-white px-4 py-3 text-sm dark:border-zinc-800 dark:bg-zinc-900">
      <div className={item}>
        <dt className="text-zinc-500 dark:text-zinc-400">Indexer</dt>
        <dd>{status.worker.alive ? <Badge tone="good">live</Badge> : <Badge tone="warn">not running</Badge>}</dd>
      </div>
      <div className={item}>
        <dt className="text-zinc-500 dark:text-zinc-400">Indexed block</dt>
        <dd className="tabular-nums">{status.indexed_block === null ? "—" : formatInteger(status.indexed_block)}</dd>
      </div>
      <div className={item}>
        <dt className="text-zinc-500 dark:text-zinc-400">Behind head</dt>
        <dd className="tabular-nums">
          {status.lag_blocks === null ? "—" : `${formatInteger(status.lag_blocks)} blocks`}
          {status.lag_seconds !== null && ` (${Math.round(status.lag_seconds)} s)`}
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
    </dl>
  );
}
