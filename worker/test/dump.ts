import { once } from "node:events";
import { createReadStream, createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { finished } from "node:stream/promises";
import { getTableName } from "drizzle-orm";
import postgres from "postgres";
import { CHAIN_DERIVED_TABLES } from "@/db/schema";

/** Columns that say when something was written, not what: left out of comparisons. */
const VOLATILE = new Set([
  "updated_at",
  "heartbeat_at",
  "data_version",
  "head_block",
  "head_block_time",
  "head_checked_at",
  "consecutive_failures",
  "last_failure_at",
  "removed_at",
  "changed_xact",
]);

/**
 * Floats to 12 significant digits: a sum of the same values in another order may differ in the
 * last bit, which is not a difference of state.
 */
const roundFloat = (_: string, v: unknown) =>
  typeof v === "number" && !Number.isInteger(v) ? Number(v.toPrecision(12)) : v;

/** Every chain-derived table as sorted JSON rows, for comparing two databases. */
export async function dumpChainTables(url: string): Promise<Record<string, string[]>> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const out: Record<string, string[]> = {};
    for (const table of CHAIN_DERIVED_TABLES.map((t) => getTableName(t.table))) {
      const rows = await sql.unsafe<{ j: Record<string, unknown> }[]>(`select row_to_json(t) as j from ${table} t`);
      out[table] = rows
        .map((r) =>
          JSON.stringify(Object.fromEntries(Object.entries(r.j).filter(([k]) => !VOLATILE.has(k))), roundFloat),
        )
        .sort();
    }
    return out;
  } finally {
    await sql.end();
  }
}

/** The tables whose rows differ, with the first differing row of each side: empty when equal. */
export function dumpDifferences(a: Record<string, string[]>, b: Record<string, string[]>) {
  return Object.keys(a).flatMap((table) => {
    const [x, y] = [a[table], b[table]];
    const i = x.findIndex((row, k) => row !== y[k]);
    if (i < 0 && x.length === y.length) return [];
    const k = i < 0 ? Math.min(x.length, y.length) : i;
    return [{ table, rows: [x.length, y.length], first: [x[k] ?? null, y[k] ?? null] }];
  });
}

/**
 * Writes the dump to `$CHAIN_DUMP_DIR/<name>.jsonl` when that is set, so a change that must not alter
 * behaviour can compare the fixture chains' tables before and after it (scripts/compare-dumps.ts):
 * the tables' names, then a line per row: its table's name, a tab and the row's JSON (one string of a large fixture's rows
 * would pass the longest string Node makes).
 */
export async function saveDumpIfAsked(name: string, url: string) {
  const dir = process.env.CHAIN_DUMP_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const dump = await dumpChainTables(url);
  const out = createWriteStream(path.join(dir, `${name}.jsonl`));
  // First the tables' names, so an empty one is in the dump too.
  out.write(`${JSON.stringify(Object.keys(dump))}\n`);
  for (const [table, rows] of Object.entries(dump)) {
    for (const row of rows) if (!out.write(`${table}\t${row}\n`)) await once(out, "drain");
  }
  out.end();
  await finished(out);
}

/** A dump saveDumpIfAsked wrote, as dumpChainTables returned it. */
export async function readDump(file: string): Promise<Record<string, string[]>> {
  let dump: Record<string, string[]> | null = null;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })) {
    if (!dump) {
      dump = Object.fromEntries((JSON.parse(line) as string[]).map((table) => [table, []]));
      continue;
    }
    const tab = line.indexOf("\t");
    dump[line.slice(0, tab)].push(line.slice(tab + 1));
  }
  return dump ?? {};
}
