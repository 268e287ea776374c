import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { loadFixture } from "@/scripts/fixtures";
import { createTestDatabase } from "@/tests/setup/database";
import { type AppServer, startAppServer } from "@/tests/setup/server";

/**
 * Two API processes against one database: a key's limits are counted in PostgreSQL, so they
 * hold exactly across both; and neither process's caches serve a view older than the data
 * version the database has when a request comes.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: Sql;
let db: Db;
let servers: AppServer[] = [];
let token: string;

beforeAll(async () => {
  database = await createTestDatabase("oci_two_processes");
  await runMigrations(database.url);
  await loadFixture(database.url, { size: "tiny", seed: 3 });
  sql = connect(database.url, { max: 2 });
  db = createDb(sql);
  [{ address: token }] = await sql<{ address: string }[]>`select address from tokens order by address limit 1`;
  servers = await Promise.all([0, 1].map(() => startAppServer({ DATABASE_URL: database.url })));
}, 300_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await sql?.end();
  await database?.drop();
});

const newKey = async () => createKey(db, await ensureAccount(db, null, "api_tier"), "two processes");

async function get(server: AppServer, path: string, key: string) {
  const res = await fetch(`${server.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.json(), block: res.headers.get("x-indexed-block") };
}

describe("two API processes on one database", () => {
  it("hold a key's daily quota exactly across both, under concurrent requests", async () => {
    const { id, key } = await newKey();
    const quota = 7;
    await sql`update api_keys set rate_per_day = ${quota}, rate_per_minute = 1000 where id = ${id}`;
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => get(servers[i % 2], `/v1/tokens/${token}`, key)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(quota);
    expect(statuses.filter((s) => s === 429)).toHaveLength(answers.length - quota);
  });

  it("answer a new data version at once in both, whatever either cached", async () => {
    const { key } = await newKey();
    const read = () =>
      Promise.all(servers.map((s) => get(s, `/v1/tokens/${token}`, key).then((r) => [r.status, r.body.name])));
    const [[, name]] = await read();
    // Twice: each process has read it, and keeps whatever its caches keep of it.
    expect(await read()).toEqual([
      [200, name],
      [200, name],
    ]);
    await sql.begin(async (tx) => {
      await tx`update tokens set name = 'Renamed in a new version' where address = ${token}`;
      await tx`update sync_state set data_version = data_version + 1`;
    });
    expect(await read()).toEqual([
      [200, "Renamed in a new version"],
      [200, "Renamed in a new version"],
    ]);
  });
});
