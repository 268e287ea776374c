/**
 * `tsx scripts/compare-dumps.ts BEFORE_DIR AFTER_DIR`: compares the chain-derived tables the worker
 * tests dumped (CHAIN_DUMP_DIR, worker/test/dump.ts) on two checkouts, dump by dump, and prints a
 * table: rows per side and the tables that differ. Exits 1 when any dump differs or is missing.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { printTable } from "@/bench/lib/table";
import { dumpDifferences, readDump } from "@/worker/test/dump";

const [before, after] = process.argv.slice(2);
if (!before || !after) throw new Error("usage: tsx scripts/compare-dumps.ts BEFORE_DIR AFTER_DIR");
const read = (dir: string, file: string) => (existsSync(path.join(dir, file)) ? readDump(path.join(dir, file)) : null);
const files = [...new Set([...readdirSync(before), ...readdirSync(after)])].filter((f) => f.endsWith(".jsonl")).sort();
let same = true;
const rows: Record<string, string | number>[] = [];
for (const file of files) {
  // One dump pair in memory at a time.
  const [a, b] = [await read(before, file), await read(after, file)];
  const count = (d: Record<string, string[]> | null) => (d ? Object.values(d).reduce((n, r) => n + r.length, 0) : "-");
  const diff = a && b ? dumpDifferences(a, b) : null;
  if (!diff || diff.length > 0) same = false;
  for (const d of diff ?? []) console.error(file, JSON.stringify(d));
  rows.push({
    dump: file.replace(/\.jsonl$/, ""),
    tables: a ? Object.keys(a).length : "-",
    "rows before": count(a),
    "rows after": count(b),
    differing: diff ? diff.map((d) => d.table).join(", ") || "none" : "missing",
  });
}
printTable(rows);
process.exit(same ? 0 : 1);
