/**
 * The embedded PostgreSQL's settings for an indexer's writes. PostgreSQL's defaults (128 MB of
 * shared buffers, a checkpoint every 1 GB of WAL) are sized for any machine: once a backfill's
 * indexes outgrow those buffers, its sessions write dirty pages out themselves, and every
 * checkpoint makes the next change to each page log the whole page again (docs/scaling.md).
 */
const MB = 1024 * 1024;

/** A quarter of the machine's memory for shared buffers, PostgreSQL's own advice, within these bounds. */
const SHARED_BUFFERS_MB = { least: 128, most: 8 * 1024 };

/** The server's settings on a machine of `totalMemoryBytes`, by name. */
export function indexerServerSettings(totalMemoryBytes: number): Record<string, string> {
  const quarter = Math.floor(totalMemoryBytes / 4 / MB);
  return {
    shared_buffers: `${Math.min(Math.max(quarter, SHARED_BUFFERS_MB.least), SHARED_BUFFERS_MB.most)}MB`,
    // WAL kept between checkpoints, on disk at most about this much: fewer full-page images.
    max_wal_size: "8GB",
    checkpoint_timeout: "15min",
  };
}

/** Settings as the server's command line takes them: `-c name=value` each. */
export const settingFlags = (settings: Record<string, string>): string[] =>
  Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]);
