/**
 * A sampling profile of where a process's database time goes, without touching its code: every
 * few milliseconds it reads pg_stat_activity for the sessions of one application name and counts
 * each active statement under a label (the table it writes, else the first it reads). A label's
 * share of the samples is its share of the time those sessions spent in statements. An active
 * statement is not always working: each sample also counts what it waited for, if anything (a
 * statement waiting for the client is waiting for the process, not the other way round).
 */
import type { Sql } from "@/db/client";

const SAMPLE_MS = 10;

/** What a statement does to which table: "insert token_metrics", "copy events", "select balances"... */
export function statementLabel(query: string): string {
  const q = query.replace(/\s+/g, " ").trim().toLowerCase();
  const copy = q.match(/^copy "?(\w+)"?/);
  if (copy) return `copy ${copy[1]}`;
  const write = q.match(/\b(insert into|update|delete from)\s+"?(\w+)"?/);
  if (write) return `${write[1].split(" ")[0]} ${write[2]}`;
  if (/^(begin|commit|rollback|set |select pg_advisory|select set_config)/.test(q)) return "transaction control";
  // The first table read: not a common table expression's name, a function such as unnest(...),
  // nor a column (extract(epoch from e.timestamp)).
  const ctes = new Set([...q.matchAll(/(\w+)(?:\([\w, ]*\))? as (?:not )?(?:materialized )?\(/g)].map((m) => m[1]));
  for (const m of q.matchAll(/\b(?:from|join)\s+"?(\w+)"?(\s*\(|\.)?/g)) {
    if (!m[2] && !ctes.has(m[1])) return `select ${m[1]}`;
  }
  return q.slice(0, 40);
}

export type DbProfile = {
  /**
   * Share of the sampling ticks with at least one of its sessions active. An upper bound on how
   * database-bound it was: PostgreSQL's log of statement durations found the fixture backfill's
   * statements executing about half the time this read 89% (docs/scaling.md).
   */
  busy: number;
  labels: { label: string; samples: number; share: number }[];
  /** What the statements were doing, by share of the samples: "working", else the wait (pg_stat_activity's). */
  waits: { label: string; samples: number; share: number }[];
};

/** A sample's wait: none is working (on the CPU, or reading a page the OS has cached). */
const waitLabel = (type: string | null, event: string | null) => (type ? `waiting: ${type} ${event}` : "working");

/** Counts by share of their total, largest first. */
function shares(counts: Map<string, number>) {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  return [...counts]
    .map(([label, samples]) => ({ label, samples, share: samples / total }))
    .sort((a, b) => b.samples - a.samples);
}

/** Samples until stopped; `stop` returns how busy it was and the labels by share of the samples, largest first. */
export function sampleDbActivity(sql: Sql, applicationName: string) {
  const counts = new Map<string, number>();
  const waits = new Map<string, number>();
  let [ticks, busyTicks] = [0, 0];
  let running = true;
  const loop = (async () => {
    while (running) {
      const rows = await sql<{ query: string; type: string | null; event: string | null }[]>`
        select query, wait_event_type as type, wait_event as event from pg_stat_activity
        where application_name = ${applicationName} and state = 'active' and datname = current_database()`;
      ticks++;
      if (rows.length > 0) busyTicks++;
      for (const r of rows) {
        const label = statementLabel(r.query);
        counts.set(label, (counts.get(label) ?? 0) + 1);
        const wait = waitLabel(r.type, r.event);
        waits.set(wait, (waits.get(wait) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  return {
    stop: async (): Promise<DbProfile> => {
      running = false;
      await loop;
      return { busy: busyTicks / Math.max(ticks, 1), labels: shares(counts), waits: shares(waits) };
    },
  };
}
