import type postgres from "postgres";
import { type GenerateProgress, generateDataset } from "./generate";
import { dropIndexes } from "./indexes";
import type { DatasetOptions, ResolvedOptions } from "./options";
import { TABLE_NAMES, type TableName } from "./tables";
import { TableWriter, type WriteMethod } from "./writers";

export type LoadOptions = DatasetOptions & {
  /** COPY FROM STDIN (large sets) instead of multi-row INSERT. */
  copy?: boolean;
  /** Drop the tables' indexes during the load and re-create them after. Default: with COPY. */
  rebuildIndexes?: boolean;
  /** Empty the dataset's tables first (default), so a load replaces any earlier one. */
  truncate?: boolean;
  /** Rows per INSERT or COPY batch. */
  batchRows?: number;
  onProgress?: (p: LoadProgress) => void;
};

export type LoadProgress = GenerateProgress & { rows: number; seconds: number; message: string };

export type LoadSummary = {
  options: ResolvedOptions;
  method: WriteMethod;
  rows: Record<TableName, number>;
  /** Time spent writing each table, overlapping with generation. */
  tableSeconds: Record<TableName, number>;
  seconds: { load: number; indexes: number; analyze: number; total: number };
};

/**
 * Generates the dataset and writes it into an already-migrated database: every chain-derived
 * table the API reads (accounts, keys and alerts are left alone). Runs on one reserved
 * connection without statement timeout, since single statements of a large load run long.
 */
export async function loadDataset(sql: postgres.Sql, options: LoadOptions = {}): Promise<LoadSummary> {
  const method: WriteMethod = options.copy ? "copy" : "insert";
  const started = performance.now();
  const elapsed = (from = started) => (performance.now() - from) / 1000;
  const tableList = TABLE_NAMES.map((t) => `"${t}"`).join(", ");
  const conn = await sql.reserve();
  try {
    await conn`set statement_timeout = 0`;
    await conn`set synchronous_commit = off`;
    if (options.truncate ?? true) await conn.unsafe(`truncate table ${tableList}`);
    const restore = (options.rebuildIndexes ?? options.copy) ? await dropIndexes(conn, TABLE_NAMES) : [];
    // Events arrive token by token, out of block order: the running per-block totals are
    // recounted once at the end instead of after every batch (db/functions/event-counts.sql).
    await conn`alter table events disable trigger events_count_insert`;
    restore.push("alter table events enable trigger events_count_insert", "select event_counts_rebuild()");

    const writer = new TableWriter(conn, method, options.batchRows);
    let resolved: ResolvedOptions | undefined;
    let failure: unknown;
    try {
      resolved = await generateDataset(options, writer, (p) => {
        const rows = Object.values(writer.rows).reduce((a, b) => a + b, 0);
        const seconds = elapsed();
        options.onProgress?.({ ...p, rows, seconds, message: `${p.phase} ${p.done}/${p.total}, ${rows} rows, ${seconds.toFixed(1)} s` });
      });
      await writer.close();
    } catch (e) {
      failure = e;
      await writer.settle().catch(() => {});
    }
    // Indexes come back even after a failed load; the load's error stays the one reported.
    const indexesFrom = performance.now();
    try {
      if (restore.length) await conn`set maintenance_work_mem = '512MB'`;
      for (const statement of restore) await conn.unsafe(statement);
    } catch (e) {
      if (!failure) throw e;
      throw new Error(`${String(failure)}; re-creating the dropped indexes failed too: ${String(e)}`, { cause: failure });
    }
    if (failure || !resolved) throw failure;
    const indexSeconds = elapsed(indexesFrom);
    const load = elapsed() - indexSeconds;
    const analyzeFrom = performance.now();
    // Vacuum too: it sets the visibility map, so counts on an index need not visit the table.
    await conn.unsafe(`vacuum (analyze) ${tableList}`);
    const analyze = elapsed(analyzeFrom);
    return {
      options: resolved,
      method,
      rows: { ...writer.rows },
      tableSeconds: { ...writer.seconds },
      seconds: { load, indexes: indexSeconds, analyze, total: elapsed() },
    };
  } finally {
    // The session settings above must not follow the connection back into the pool.
    await conn`reset all`.catch(() => {});
    conn.release();
  }
}
