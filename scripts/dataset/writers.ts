import type postgres from "postgres";
import { FREE_TEXT_COLUMNS, JSON_COLUMNS, type Row, type RowSink, TABLE_NAMES, TABLES, type TableName } from "./tables";

export type WriteMethod = "insert" | "copy";
type Conn = postgres.ReservedSql;

/** PostgreSQL accepts at most 65535 bind parameters per statement. */
const MAX_PARAMS = 65_535;
/** token_metrics references tokens: the tokens buffer is flushed first. */
const REFERENCES: Partial<Record<TableName, TableName>> = { token_metrics: "tokens" };

const quoteColumns = (t: TableName) => TABLES[t].map((c) => `"${c}"`).join(", ");

/** COPY text format: tab-separated, \N for NULL, backslash escapes (needed by free text only). */
const escapeCopy = (v: string) => v.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");

function copyLine(table: TableName): (row: Row) => string {
  const free = TABLES[table].map((c) => FREE_TEXT_COLUMNS.has(`${table}.${c}`));
  return (row) => `${row.map((v, c) => (v === null ? "\\N" : free[c] ? escapeCopy(v) : v)).join("\t")}\n`;
}

async function insertRows(conn: Conn, table: TableName, rows: Row[]): Promise<void> {
  const columns = TABLES[table];
  const width = columns.length;
  const cast = columns.map((c) => (JSON_COLUMNS.has(`${table}.${c}`) ? "::text::jsonb" : ""));
  const perStatement = Math.floor(MAX_PARAMS / width);
  for (let i = 0; i < rows.length; i += perStatement) {
    const batch = rows.slice(i, i + perStatement);
    const values = batch.map((_, r) => `(${cast.map((cs, c) => `$${r * width + c + 1}${cs}`).join(",")})`);
    await conn.unsafe(`insert into "${table}" (${quoteColumns(table)}) values ${values.join(",")}`, batch.flat());
  }
}

/**
 * One COPY per batch, in its own transaction. postgres.js drops a server error that arrives
 * after the data was sent (and still reports the stream finished), so success is read from the
 * transaction instead: a failed COPY leaves it aborted, and the rows are then replayed through
 * INSERT, which throws the server's actual error.
 */
async function copyRows(conn: Conn, table: TableName, rows: Row[]): Promise<void> {
  await conn`begin`;
  try {
    const line = copyLine(table);
    const stream = await conn.unsafe(`copy "${table}" (${quoteColumns(table)}) from stdin`).writable();
    for (let i = 0; i < rows.length; i += 1000) {
      const text = rows
        .slice(i, i + 1000)
        .map(line)
        .join("");
      if (!stream.write(text)) await new Promise((resolve) => stream.once("drain", resolve));
    }
    // Once the last write is flushed, end() hands the connection back on the next turn.
    await new Promise((resolve) => stream.write("", resolve));
    stream.end();
    await new Promise((resolve) => setImmediate(resolve));
    await conn`select 1`;
  } catch {
    await conn`rollback`;
    await insertRows(conn, table, rows);
    return;
  }
  await conn`commit`;
}

/**
 * Buffers rows per table and writes full buffers while the generator goes on: one write is in
 * flight at a time, so memory stays at one buffer per table plus the batch being written.
 */
export class TableWriter implements RowSink {
  readonly rows = Object.fromEntries(TABLE_NAMES.map((t) => [t, 0])) as Record<TableName, number>;
  /** Time spent writing each table (the generator runs meanwhile). */
  readonly seconds = Object.fromEntries(TABLE_NAMES.map((t) => [t, 0])) as Record<TableName, number>;
  private readonly buffers = new Map<TableName, Row[]>(TABLE_NAMES.map((t) => [t, []]));
  private pending: Promise<void> = Promise.resolve();
  private failure: unknown = null;

  constructor(
    private readonly conn: Conn,
    private readonly method: WriteMethod,
    private readonly batchRows = method === "copy" ? 10_000 : 2_000,
  ) {}

  add(table: TableName, row: Row): void {
    this.buffers.get(table)!.push(row);
    this.rows[table]++;
  }

  async drain(): Promise<void> {
    for (const t of TABLE_NAMES) if (this.buffers.get(t)!.length >= this.batchRows) await this.flush(t);
  }

  /** Writes what is left and waits for every write to land. */
  async close(): Promise<void> {
    for (const t of TABLE_NAMES) if (this.buffers.get(t)!.length) await this.flush(t);
    await this.settle();
  }

  /** Waits for the write in flight, reporting its failure. */
  async settle(): Promise<void> {
    await this.pending;
    if (this.failure) throw this.failure;
  }

  private async flush(table: TableName): Promise<void> {
    const parent = REFERENCES[table];
    if (parent && this.buffers.get(parent)!.length) await this.flush(parent);
    await this.settle();
    const rows = this.buffers.get(table)!;
    this.buffers.set(table, []);
    const write = this.method === "copy" ? copyRows : insertRows;
    const started = performance.now();
    this.pending = write(this.conn, table, rows).then(
      () => {
        this.seconds[table] += (performance.now() - started) / 1000;
      },
      (e: unknown) => {
        this.failure = e;
      },
    );
  }
}
