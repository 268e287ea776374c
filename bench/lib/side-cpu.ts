/**
 * CPU time a backfill used: its process's and its database sessions' (PostgreSQL backends on this
 * machine). On a machine other work shares, the wall clock of two runs made at different moments
 * carries the load of each moment; their CPU time says what each side's work cost.
 */
import type { Sql } from "@/db/client";
import { cpuMs } from "./cpu";

/** The bench's own sessions, left out of a side's. */
export const BENCH_APPLICATION = "bench-indexer";
const EVERY_MS = 500;

/**
 * Tracks a process and the sessions on `sql`'s database (other than the bench's) from now on;
 * sessions are read every half second, so one that ends keeps the CPU last seen of it.
 */
export function trackSideCpu(sql: Sql, pid: number) {
  const startedProcess = cpuMs(pid);
  const seen = new Map<number, { start: number; last: number }>();
  const read = async () => {
    const rows = await sql<{ pid: number }[]>`
      select pid from pg_stat_activity where datname = current_database() and application_name <> ${BENCH_APPLICATION}`;
    for (const { pid: backend } of rows) {
      const now = cpuMs(backend);
      const s = seen.get(backend);
      if (s) s.last = Math.max(s.last, now);
      else seen.set(backend, { start: now, last: now });
    }
  };
  let running = true;
  const first = read();
  const loop = (async () => {
    await first;
    while (running) {
      await new Promise((r) => setTimeout(r, EVERY_MS));
      await read();
    }
  })();
  return {
    /** Seconds of CPU since tracking began: the process's and its database sessions'. */
    stop: async () => {
      running = false;
      await loop;
      await read();
      let db = 0;
      for (const s of seen.values()) db += s.last - s.start;
      return { process: (cpuMs(pid) - startedProcess) / 1000, database: db / 1000 };
    },
  };
}
