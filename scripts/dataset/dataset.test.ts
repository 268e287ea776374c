import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { createTestDatabase } from "@/tests/setup/database";
import { generateDataset } from "./generate";
import { checkInvariants, datasetDigest, INVARIANTS } from "./invariants";
import { type LoadSummary, loadDataset } from "./load";
import { TABLE_NAMES } from "./tables";

const NOW = new Date("2026-06-01T12:34:56Z");
const OPTIONS = { size: "small", seed: 11, now: NOW } as const;
// The "unit" project sets no timeouts of its own; loads take seconds.
const TIMEOUT = 300_000;

/** sha256 per table of everything the generator emits, in emission order. */
async function generatorDigest(options: Parameters<typeof generateDataset>[0]) {
  const hashes = new Map(TABLE_NAMES.map((t) => [t, createHash("sha256")]));
  await generateDataset(options, { add: (table, row) => hashes.get(table)!.update(`${row.join("\t")}\n`) });
  return Object.fromEntries([...hashes].map(([t, h]) => [t, h.digest("hex")]));
}

describe("dataset generator", { timeout: TIMEOUT }, () => {
  it("is deterministic for a seed and `now`, and the seed matters", async () => {
    const a = await generatorDigest(OPTIONS);
    expect(await generatorDigest(OPTIONS)).toEqual(a);
    const other = await generatorDigest({ ...OPTIONS, seed: 12 });
    expect(other.events).not.toBe(a.events);
  });

  it("produces exactly the requested counts", async () => {
    const counts: Record<string, number> = {};
    await generateDataset(
      { tokens: 40, wallets: 500, events: 3_210, seed: 5, now: NOW },
      {
        add: (table) => void (counts[table] = (counts[table] ?? 0) + 1),
      },
    );
    expect(counts).toMatchObject({ tokens: 40, token_metrics: 40, token_scores: 40, events: 3_210, sync_state: 1 });
  });

  it("rejects impossible counts", async () => {
    await expect(generateDataset({ tokens: 100, events: 100, now: NOW }, { add() {} })).rejects.toThrow(/events/);
  });
});

describe("dataset loaded into PostgreSQL", { timeout: TIMEOUT }, () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: Sql;
  let copied: LoadSummary;
  let indexesBefore: string[];
  const indexes = async () => (await sql<{ def: string }[]>`select indexdef as def from pg_indexes where schemaname = 'public' order by 1`).map((r) => r.def);

  beforeAll(async () => {
    db = await createTestDatabase("ds_test");
    await runMigrations(db.url);
    sql = connect(db.url, { max: 2 });
    indexesBefore = await indexes();
    copied = await loadDataset(sql, { ...OPTIONS, copy: true });
  }, TIMEOUT);

  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  }, TIMEOUT);

  it("fills every table the API reads", async () => {
    for (const t of TABLE_NAMES) {
      const [{ n }] = await sql.unsafe<{ n: number }[]>(`select count(*)::int as n from "${t}"`);
      expect(n, t).toBe(copied.rows[t]);
      expect(n, t).toBeGreaterThan(0);
    }
    expect(copied.rows).toMatchObject({ tokens: 300, events: 30_000 });
  });

  let report: ReturnType<typeof checkInvariants> | undefined;
  it.each(Object.keys(INVARIANTS) as (keyof typeof INVARIANTS)[])("holds: %s", async (name) => {
    report ??= checkInvariants(sql);
    expect((await report)[name]).toBe(0);
  });

  it("re-creates exactly the indexes it dropped for COPY", async () => {
    expect(await indexes()).toEqual(indexesBefore);
  });

  it("plants something for every filter and sort", async () => {
    const [s] = await sql`
      select
        (select count(distinct f) from token_scores, unnest(flags) f)::int as flags,
        (select count(*) from token_scores where flags = '{}')::int as unflagged,
        (select count(distinct risk_level) from token_scores)::int as levels,
        (select count(*) from token_metrics where holder_growth_1h_pct > 0)::int as growing,
        (select count(*) from token_metrics where holder_growth_1h_pct < 0)::int as shrinking,
        (select count(*) from token_metrics where created_at > ${NOW} - interval '1 hour')::int as young,
        (select count(*) from token_metrics where created_at < ${NOW} - interval '3 days')::int as old,
        (select max(liquidity_usd) / nullif(min(liquidity_usd), 0) from token_metrics)::float8 as liquidity_spread,
        (select count(distinct launchpad) from tokens)::int as launchpads,
        (select count(distinct classification) from wallets)::int as classes,
        (select count(distinct sector_preference) from wallets)::int as sectors,
        (select count(distinct type) from events)::int as types`;
    expect(s.flags).toBe(5);
    expect(s.unflagged).toBeGreaterThan(150);
    expect(s.levels).toBe(4);
    expect(s.growing).toBeGreaterThan(0);
    expect(s.shrinking).toBeGreaterThan(0);
    expect(s.young).toBeGreaterThan(0);
    expect(s.old).toBeGreaterThan(0);
    expect(s.liquidity_spread).toBeGreaterThan(1000);
    expect(s.launchpads).toBe(2);
    expect(s.classes).toBe(8);
    expect(s.sectors).toBe(5);
    expect(s.types).toBe(4);
  });

  it("reports the server's error when a COPY batch fails, and restores the indexes", async () => {
    // Loading over the existing rows repeats token addresses: the tokens primary key (kept, as
    // token_metrics references it) rejects the batch.
    await expect(loadDataset(sql, { ...OPTIONS, size: "tiny", copy: true, truncate: false })).rejects.toThrow(/duplicate key/);
    expect(await indexes()).toEqual(indexesBefore);
  });

  it("writes the same rows through INSERT as through COPY", async () => {
    const viaCopy = await datasetDigest(sql, TABLE_NAMES);
    const inserted = await loadDataset(sql, OPTIONS);
    expect(inserted.rows).toEqual(copied.rows);
    expect(await datasetDigest(sql, TABLE_NAMES)).toEqual(viaCopy);
  });
});
