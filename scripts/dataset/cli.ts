/**
 * Loads the synthetic dataset into DATABASE_URL (migrating it first):
 *   npx tsx scripts/dataset/cli.ts --size tiny|small|large [--seed N]
 *     [--tokens N --wallets N --events N] [--now ISO-8601] [--copy] [--keep-indexes]
 */
import { parseArgs } from "node:util";
import { connect } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { requireDatabaseUrl } from "@/lib/config";
import { type LoadProgress, loadDataset } from "./load";
import { type DatasetSize, SIZES } from "./options";

const { values: args } = parseArgs({
  options: {
    size: { type: "string", default: "small" },
    seed: { type: "string" },
    tokens: { type: "string" },
    wallets: { type: "string" },
    events: { type: "string" },
    now: { type: "string" },
    copy: { type: "boolean", default: false },
    "keep-indexes": { type: "boolean", default: false },
  },
});

const int = (name: string, v: string | undefined) => {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new Error(`--${name} must be a non-negative integer`);
  return Number(v);
};
if (!(args.size! in SIZES)) throw new Error(`--size must be one of ${Object.keys(SIZES).join(", ")}`);
const now = args.now === undefined ? undefined : new Date(args.now);
if (now && Number.isNaN(now.getTime())) throw new Error("--now must be an ISO 8601 time");

const url = requireDatabaseUrl();
await runMigrations(url);
const sql = connect(url, { max: 1 });
let lastReport = 0;
const report = (p: LoadProgress) => {
  if (p.seconds - lastReport < 5 && p.done !== p.total) return;
  lastReport = p.seconds;
  console.error(p.message);
};
try {
  const s = await loadDataset(sql, {
    size: args.size as DatasetSize,
    seed: int("seed", args.seed),
    tokens: int("tokens", args.tokens),
    wallets: int("wallets", args.wallets),
    events: int("events", args.events),
    now,
    copy: args.copy,
    rebuildIndexes: args.copy && !args["keep-indexes"],
    onProgress: report,
  });
  const o = s.options;
  console.log(`dataset seed=${o.seed} tokens=${o.tokens} wallets=${o.wallets} events=${o.events} now=${o.now.toISOString()} via ${s.method}`);
  const width = Math.max(...Object.keys(s.rows).map((t) => t.length));
  const line = (label: string, rows: string, sec: string) => console.log(`${label.padEnd(width)}  ${rows.padStart(10)}  ${sec.padStart(8)}`);
  line("table", "rows", "write s");
  for (const [table, n] of Object.entries(s.rows)) line(table, String(n), s.tableSeconds[table as keyof typeof s.rows].toFixed(1));
  line("total", String(Object.values(s.rows).reduce((a, b) => a + b, 0)), "");
  for (const [phase, sec] of Object.entries(s.seconds)) line(`${phase} s`, "", sec.toFixed(1));
} finally {
  await sql.end();
}
