import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Sql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { FixtureHistory, loadFixture } from "@/scripts/fixtures";
import { FixtureNode } from "@/scripts/fixtures/node";
import { fixtureProfile } from "@/scripts/fixtures/profile";
import { createTestDatabase } from "@/tests/setup/database";
import { startAppServer } from "@/tests/setup/server";
import { liquidityChanges, liquidityHistories } from "@/worker/derive/scoring/liquidity";
import { Indexer } from "@/worker/indexer/indexer";
import { rollbackTo } from "@/worker/indexer/reorg";
import { Rpc } from "@/worker/indexer/rpc";
import { ChainState } from "@/worker/indexer/state";
import type { ChainProfile } from "@/worker/profiles";
import { pruneReserves } from "@/worker/retention";
import { dumpChainTables, dumpDifferences } from "@/worker/test/dump";

/**
 * The raw history retention (worker/retention.ts) on a loaded fixture chain, keeping only the
 * finality depth's blocks whole: it deletes pool reserve rows, and nothing any read gives changes:
 * the scores' liquidity reads, a full refresh's every table, a reorg rollback's pools, and every
 * API response.
 */
const FIXTURE = { size: "tiny", seed: 5 } as const;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: Sql;
let indexer: Indexer;
let profile: ChainProfile;
let key: string;

beforeAll(async () => {
  database = await createTestDatabase("oci_retention");
  await runMigrations(database.url);
  const loaded = await loadFixture(database.url, FIXTURE);
  sql = connect(database.url, { max: 4 });
  // The worker as it stands after the load, on the same chain, for its full refresh.
  const history = new FixtureHistory({ ...FIXTURE, now: loaded.options.now });
  profile = fixtureProfile(history);
  const rpc = new Rpc({ transport: new FixtureNode(history).transport(), addressChunkSize: profile.addressChunkSize });
  indexer = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
  const db = createDb(sql);
  key = (await createKey(db, await ensureAccount(db, null, "api_tier"), "retention")).key;
}, 300_000);

afterAll(async () => {
  await sql?.end();
  await database?.drop();
});

/** What the token scores read of pool_reserves, for every token. */
async function liquidityReads() {
  const tokens = (await sql<{ address: string }[]>`select address from tokens order by address`).map((t) => t.address);
  const state = await ChainState.load(sql, profile);
  const [histories, changes] = await Promise.all([
    liquidityHistories(sql, state, tokens),
    liquidityChanges(sql, tokens),
  ]);
  return { histories: Object.fromEntries(histories), changes: Object.fromEntries(changes) };
}

/** The pools as a rollback to the finality depth's block leaves them (the rollback itself undone). */
async function poolsAfterRollback() {
  let pools: unknown = null;
  await sql
    .begin(async (tx) => {
      const [a] = await tx<{ number: string; hash: string; time: number }[]>`
        select number::text, hash, extract(epoch from timestamp)::float8 as time from blocks
         where number <= (select indexed_block - finality_depth from sync_state) order by number desc limit 1`;
      await rollbackTo(tx, profile, { number: Number(a.number), hash: a.hash, timestamp: a.time });
      pools = await tx`select * from pools order by address`;
      throw new Error("undo");
    })
    .catch((err) => {
      if ((err as Error).message !== "undo") throw err;
    });
  return pools;
}

/** Every list and page of the API over the whole chain, from a server started now (no cache of before). */
async function apiResponses() {
  const tokens = (await sql<{ address: string }[]>`select address from tokens order by address`).map((t) => t.address);
  const wallets = (
    await sql<{ address: string }[]>`select wallet_address as address from events group by 1 order by count(*) desc, 1
                                      limit 20`
  ).map((w) => w.address);
  const paths = [
    "/v1/tokens?limit=200",
    "/v1/tokens?sort=risk_asc&limit=200",
    "/v1/tokens?sort=liquidity&limit=200",
    "/v1/events?limit=200",
    ...tokens.flatMap((a) => [
      `/v1/tokens/${a}`,
      `/v1/tokens/${a}/holders?limit=200`,
      `/v1/tokens/${a}/ohlcv?interval=5m`,
      `/v1/tokens/${a}/ohlcv?interval=1h`,
      `/v1/tokens/${a}/pools`,
      `/v1/tokens/${a}/security`,
    ]),
    ...wallets.flatMap((a) => [`/v1/wallets/${a}`, `/v1/wallets/${a}/positions`]),
  ];
  const server = await startAppServer({ DATABASE_URL: database.url });
  try {
    const out: Record<string, unknown> = {};
    for (const path of paths) {
      const res = await fetch(server.baseUrl + path, { headers: { Authorization: `Bearer ${key}` } });
      // age_hours is measured against the request's clock, not the data.
      const body = JSON.parse(await res.text(), (k, v) => (k === "age_hours" ? undefined : v));
      out[path] = { status: res.status, body };
    }
    return out;
  } finally {
    await server.stop();
  }
}

/** Every chain-derived table after a full refresh, pool_reserves left out. */
async function refreshedTables() {
  await indexer.refreshAll();
  const { pool_reserves: _, ...rest } = await dumpChainTables(database.url);
  return rest;
}

const count = async (where = sql`true`) =>
  Number((await sql<{ n: string }[]>`select count(*) as n from pool_reserves where ${where}`)[0].n);

describe("raw history retention", () => {
  it("deletes superseded pool reserve rows and changes nothing a read gives", async () => {
    const before = {
      liquidity: await liquidityReads(),
      pools: await poolsAfterRollback(),
      tables: await refreshedTables(),
      api: await apiResponses(),
    };
    const [{ cutoff }] = await sql<{ cutoff: number }[]>`select (indexed_block - finality_depth)::int as cutoff
                                                          from sync_state`;
    const [total, recent] = [await count(), await count(sql`block_number > ${cutoff}`)];

    const deleted = await pruneReserves(sql, cutoff);
    expect(deleted).toBeGreaterThan(total / 10);
    expect(await count()).toBe(total - deleted);
    expect(await count(sql`block_number > ${cutoff}`)).toBe(recent);
    // A second pass finds nothing more to delete.
    expect(await pruneReserves(sql, cutoff)).toBe(0);

    expect(await liquidityReads()).toEqual(before.liquidity);
    expect(await poolsAfterRollback()).toEqual(before.pools);
    expect(dumpDifferences(before.tables, await refreshedTables())).toEqual([]);
    const api = await apiResponses();
    expect(Object.values(api).every((r) => (r as { status: number }).status === 200)).toBe(true);
    expect(api).toEqual(before.api);
  }, 600_000);
});
