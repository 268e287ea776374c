import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { ApiError } from "@/lib/api/errors";
import { createTestDatabase } from "@/tests/setup/database";
import { createKey, ensureAccount, revokeKey, rotateKey, setPlan } from "./store";

let drop: () => Promise<void>;
let sql: Sql;
let db: Db;

beforeAll(async () => {
  const database = await createTestDatabase("keys_store_test");
  drop = database.drop;
  await runMigrations(database.url);
  sql = connect(database.url, { max: 6 });
  db = createDb(sql);
});

afterAll(async () => {
  await sql.end();
  await drop();
});

describe("keys per account", () => {
  it("are capped by the plan (Free 2, Pro 10, API Tier 100), counting live keys, with a 403 past the cap", async () => {
    const account = await ensureAccount(db, null, "free");
    const [a] = [await createKey(db, account), await createKey(db, account)];
    const refused = await createKey(db, account).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 403, code: "FORBIDDEN", message: "The Free plan allows 2 live API keys; revoke one first." });

    // Rotation replaces a key: it fits at the cap.
    const rotated = await rotateKey(db, a.id, account);
    expect(rotated).not.toBeNull();
    await revokeKey(db, rotated!.id, account);
    await createKey(db, account);

    await setPlan(db, account, "pro");
    for (let i = 0; i < 8; i++) await createKey(db, account);
    await expect(createKey(db, account)).rejects.toMatchObject({ status: 403, message: expect.stringContaining("Pro plan allows 10") });
    const [{ cap }] = await sql<{ cap: number }[]>`select max_keys as cap from plans where id = 'api_tier'`;
    expect(cap).toBe(100);
  });

  it("keep their alerts across a rotation: the new key owns them, so they keep firing", async () => {
    const account = await ensureAccount(db, null, "free");
    const old = await createKey(db, account, "bot");
    await sql`insert into alerts (id, key_id, account_id, name, conditions) values ('alrt_rotated', ${old.id}, ${account}, 'a', '{"max_risk_score":50}')`;
    const rotated = await rotateKey(db, old.id, account);
    const [alert] = await sql<{ key_id: string }[]>`select key_id from alerts where id = 'alrt_rotated'`;
    expect(alert.key_id).toBe(rotated!.id);
    expect(rotated!.name).toBe("bot");
  });

  it("hold the cap when creations race", async () => {
    const account = await ensureAccount(db, null, "free");
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => createKey(db, account)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    const [{ live }] = await sql<{ live: number }[]>`select count(*)::int as live from api_keys where account_id = ${account} and revoked_at is null`;
    expect(live).toBe(2);
  });
});
