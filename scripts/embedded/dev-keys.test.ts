import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { hashKey } from "@/lib/keys/secret";
import { revokeKey, rotateKey } from "@/lib/keys/store";
import { createTestDatabase } from "@/tests/setup/database";
import { ensureDevKeys } from "./dev-keys";

let drop: () => Promise<void>;
let sql: Sql;
let db: Db;
let dataDir: string;

beforeAll(async () => {
  const database = await createTestDatabase("dev_keys_test");
  drop = database.drop;
  await runMigrations(database.url);
  sql = connect(database.url, { max: 2 });
  db = createDb(sql);
  dataDir = mkdtempSync(path.join(tmpdir(), "oci-dev-keys-"));
});

afterAll(async () => {
  await sql.end();
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const keyId = async (secret: string) =>
  (await sql<{ id: string }[]>`select id from api_keys where hash = ${hashKey(secret)}`)[0].id;
const accountOf = async (email: string) =>
  (await sql<{ id: string; plan: string }[]>`select id, plan from accounts where email = ${email}`)[0];

describe("the embedded start's dev keys", () => {
  it("are one per plan, each on its dev account, the same at every start", async () => {
    const first = await ensureDevKeys(db, dataDir);
    expect(first.map(({ plan, email }) => [plan, email])).toEqual([
      ["free", "dev+free@localhost"],
      ["pro", "dev+pro@localhost"],
      ["api_tier", "dev+api_tier@localhost"],
    ]);
    for (const k of first) {
      expect(k.key).toMatch(/^ocd_live_/);
      expect((await accountOf(k.email)).plan).toBe(k.plan);
    }
    expect(await ensureDevKeys(db, dataDir)).toEqual(first);
    expect(JSON.parse(readFileSync(path.join(dataDir, "dev-keys.json"), "utf8"))).toEqual(
      Object.fromEntries(first.map((k) => [k.plan, k.key])),
    );
  });

  it("stay revoked, or rotated, once their owner did so: the next start mints none", async () => {
    await ensureDevKeys(db, dataDir);
    const saved = () => JSON.parse(readFileSync(path.join(dataDir, "dev-keys.json"), "utf8")) as Record<string, string>;
    const { free, pro } = saved();
    await revokeKey(db, await keyId(free));
    await rotateKey(db, await keyId(pro), (await accountOf("dev+pro@localhost")).id);

    const again = await ensureDevKeys(db, dataDir);
    const live = async (email: string) =>
      (
        await sql<{ live: number }[]>`
          select count(*)::int as live from api_keys k join accounts a on a.id = k.account_id
           where a.email = ${email} and k.revoked_at is null`
      )[0].live;
    // The rotated key is the one its owner made; none is minted beside it.
    expect([
      await live("dev+free@localhost"),
      await live("dev+pro@localhost"),
      await live("dev+api_tier@localhost"),
    ]).toEqual([0, 1, 1]);
    expect(again.map((k) => [k.plan, k.key === null])).toEqual([
      ["free", true],
      ["pro", true],
      ["api_tier", false],
    ]);
    expect(saved()).toEqual({ api_tier: again[2].key });
  });
});
