import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Sql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { loadFixture } from "@/scripts/fixtures";
import { type ReplicaPair, startReplicaPair } from "@/tests/setup/replica-pair";
import { type AppServer, startAppServer } from "@/tests/setup/server";

/**
 * DATABASE_READ_URL against a real streaming replica (db/read-replicas.ts): a server whose reads
 * go to the replica answers as of the replica's own block, header and body alike, while its
 * replay is paused; a replica further behind than READ_REPLICA_MAX_LAG_BLOCKS, or down, is
 * skipped and the primary answers.
 */
const MAX_LAG = 10;
let pair: ReplicaPair;
let server: AppServer;
let sql: Sql;
let key: string;
let token: string;

beforeAll(async () => {
  pair = await startReplicaPair();
  await runMigrations(pair.primaryUrl);
  await loadFixture(pair.primaryUrl, { size: "tiny", seed: 5 });
  sql = connect(pair.primaryUrl, { max: 2 });
  const db = createDb(sql);
  key = (await createKey(db, await ensureAccount(db, null, "api_tier"), "replica test")).key;
  [{ address: token }] = await sql<{ address: string }[]>`select address from tokens order by address limit 1`;
  await pair.caughtUp();
  server = await startAppServer({
    DATABASE_URL: pair.primaryUrl,
    DATABASE_READ_URL: pair.replicaUrl,
    READ_REPLICA_MAX_LAG_BLOCKS: String(MAX_LAG),
  });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await sql?.end();
  await pair?.stop();
});

async function get(path: string) {
  const res = await fetch(`${server.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, block: Number(res.headers.get("x-indexed-block")), body: await res.json() };
}

/** The token's profile (a read of one address, withAddressRead) as its block and name. */
async function profile() {
  const r = await get(`/v1/tokens/${token}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { block: r.block, name: r.body.name as string };
}

/** Moves the primary's indexed block on by `blocks` and renames the token, in one transaction (a new data version). */
const advance = (blocks: number, name: string) =>
  sql.begin(async (tx) => {
    await tx`update tokens set name = ${name} where address = ${token}`;
    await tx`update sync_state set indexed_block = indexed_block + ${blocks}, data_version = data_version + 1`;
  });

describe("reads from a streaming replica", () => {
  it("answers as of the replica's own block while it lags, and from the primary once it lags too far", async () => {
    const before = await profile();
    expect(before.block).toBeGreaterThan(0);

    await pair.pauseReplay();
    await advance(3, "Within the bound");
    // The replica is 3 blocks behind, within the bound: its own view, under its own header.
    for (let i = 0; i < 5; i++) expect(await profile()).toEqual(before);
    const list = await get("/v1/tokens?limit=5");
    expect(list.status).toBe(200);
    expect(list.block).toBe(before.block);
    const status = await fetch(`${server.baseUrl}/v1/status`).then((r) => r.json());
    expect(status.indexed_block).toBe(before.block);

    await advance(MAX_LAG + 10, "Beyond the bound");
    const primary = { block: before.block + 3 + MAX_LAG + 10, name: "Beyond the bound" };
    // Once the server's probe sees the lag, the primary answers; until then the replica does. Never a mix.
    for (let seen = before; seen.block !== primary.block; ) {
      seen = await profile();
      expect([before, primary]).toContainEqual(seen);
    }
    expect(await profile()).toEqual(primary);

    await pair.resumeReplay();
    await pair.caughtUp();
    for (let i = 0; i < 5; i++) expect(await profile()).toEqual(primary);
  });

  it("builds the token list on the replica from its last snapshot, with the rows replayed since", async () => {
    // The replica's own list is built first, and the next build reads only what it replays after.
    const before = await profile();
    const topByLiquidity = async () => {
      const r = await get("/v1/tokens?sort=liquidity&limit=1");
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return { block: r.block, top: r.body.data[0].address as string };
    };
    const first = await topByLiquidity();
    expect(first.top).not.toBe(token);
    await pair.pauseReplay();
    await sql.begin(async (tx) => {
      await tx`update token_metrics set liquidity_usd = 1e18 where address = ${token}`;
      await tx`update sync_state set indexed_block = indexed_block + 1, data_version = data_version + 1`;
    });
    // Never newer than its header: at the replica's block, not the change. (At the new block a list may still be one
    // data version behind for a moment, while its snapshot builds.) The loop ends once the replica answers.
    const newerThanHeader = (seen: { block: number; top: string }) => seen.block === before.block && seen.top === token;
    for (let seen = { block: before.block + 1, top: token }; seen.block !== before.block; ) {
      seen = await topByLiquidity();
      expect(newerThanHeader(seen)).toBe(false);
    }
    // Replayed, the replica (the one usable read) builds its next snapshot from that one, with the changed row.
    await pair.resumeReplay();
    await pair.caughtUp();
    for (let seen = first; seen.top !== token; ) {
      seen = await topByLiquidity();
      expect(newerThanHeader(seen)).toBe(false);
    }
  });

  it("answers from the primary when the replica is down", async () => {
    const before = await profile();
    await pair.stopReplica();
    for (let i = 0; i < 5; i++) expect(await profile()).toEqual(before);
    const list = await get("/v1/tokens?limit=5");
    expect(list.status).toBe(200);
    expect(list.block).toBe(before.block);
  });
});
