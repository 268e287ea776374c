import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { type EmbeddedDatabase, startEmbeddedDatabase } from "@/scripts/embedded/database";
import { checkInvariants } from "./invariants";
import { loadDataset, type LoadSummary } from "./load";

const TIMEOUT = 600_000;

/** The first port of 5480..5489 that the embedded server can bind. */
async function startOnFreePort(dir: string): Promise<EmbeddedDatabase> {
  for (let port = 5480; port <= 5489; port++) {
    try {
      return await startEmbeddedDatabase(path.join(dir, String(port)), port);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EADDRINUSE") throw e;
    }
  }
  throw new Error("no free port in 5480..5489");
}

describe("dataset loaded into embedded PGlite through INSERT", { timeout: TIMEOUT }, () => {
  let dir: string;
  let embedded: EmbeddedDatabase;
  let sql: Sql;
  let summary: LoadSummary;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "ds-pglite-"));
    embedded = await startOnFreePort(dir);
    await runMigrations(embedded.url);
    sql = connect(embedded.url, { max: 2 });
    summary = await loadDataset(sql, { size: "small", seed: 4, now: new Date("2026-06-01T00:00:00Z") });
    console.log(`small dataset into PGlite via INSERT: ${summary.seconds.total.toFixed(1)} s`);
  }, TIMEOUT);

  afterAll(async () => {
    await sql?.end();
    await embedded?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, TIMEOUT);

  it("loads every row", async () => {
    expect(summary.method).toBe("insert");
    const [{ events, tokens }] = await sql`select (select count(*) from events)::int as events, (select count(*) from tokens)::int as tokens`;
    expect({ events, tokens }).toEqual({ events: summary.rows.events, tokens: summary.rows.tokens });
  });

  it("holds every invariant", async () => {
    const report = await checkInvariants(sql);
    expect(Object.entries(report).filter(([, n]) => n !== 0)).toEqual([]);
  });
});
