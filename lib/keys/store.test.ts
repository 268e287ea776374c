import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { toApiError } from "@/lib/api/errors";
import { changePlan } from "@/lib/billing/plan-change";
import { Forbidden } from "@/lib/domain/errors";
import { createTestDatabase } from "@/tests/setup/database";
import { createKey, ensureAccount, revokeKey, rotateKey } from "./store";

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
    expect(refused).toBeInstanceOf(Forbidden);
    expect(toApiError(refused)).toMatchObject({
      status: 403,
      code: "FORBIDDEN",
      message: "The Free plan allows 2 live API keys; revoke one first.",
    });

    // Rotation replaces a key: it fits at the cap.
    const rotated = await rotateKey(db, a.id, account);
    expect(rotated).not.toBeNull();
    await revokeKey(db, rotated!.id, account);
    await createKey(db, account);

    await changePlan(db, account, "pro", new Date());
    for (let i = 0; i < 8; i++) await createKey(db, account);
    await expect(createKey(db, account)).rejects.toThrow(
      new Forbidden("The Pro plan allows 10 live API keys; revoke one first."),
    );
    const [{ cap }] = await sql<{ cap: number }[]>`select max_keys as cap from plans where id = 'api_tier'`;
    expect(cap).toBe(100);
  });

  it("keep their alerts across a rotation: the new key owns them, so they keep firing", async () => {
    const account = await ensureAccount(db, null, "free");
    const old = await createKey(db, account, "bot");
    await sql`insert into alerts (id, key_id, account_id, name, conditions)
              values ('alrt_rotated', ${old.id}, ${account}, 'a', '{"max_risk_score":50}')`;
    const rotated = await rotateKey(db, old.id, account);
    const [alert] = await sql<{ key_id: string }[]>`select key_id from alerts where id = 'alrt_rotated'`;
    expect(alert.key_id).toBe(rotated!.id);
    expect(rotated!.name).toBe("bot");
  });

  it("hold the cap when creations race", async () => {
    const account = await ensureAccount(db, null, "free");
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => createKey(db, account)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    const [{ live }] = await sql<
      { live: number }[]
    >`select count(*)::int as live from api_keys where account_id = ${account} and revoked_at is null`;
    expect(live).toBe(2);
  });

  it("over a downgraded plan's cap are disabled newest first, not deleted; back on upgrade or revocation", async () => {
    const account = await ensureAccount(db, null, "pro");
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createKey(db, account, `k${i}`));
    const disabled = async () =>
      (
        await sql<
          { name: string }[]
        >`select name from api_keys where account_id = ${account} and disabled_at is not null order by name`
      ).map((k) => k.name);

    expect(await changePlan(db, account, "free", new Date())).toMatchObject({ disabledKeys: 3, enabledKeys: 0 });
    expect(await disabled()).toEqual(["k2", "k3", "k4"]);
    const [{ live }] = await sql<
      { live: number }[]
    >`select count(*)::int as live from api_keys where account_id = ${account} and revoked_at is null`;
    expect(live).toBe(5);
    // Past the cap: no new key, and no rotation either, until there is room.
    await expect(createKey(db, account)).rejects.toThrow(Forbidden);
    await expect(rotateKey(db, made[0].id, account)).rejects.toThrow(Forbidden);

    // Revoking an older key makes room for the oldest disabled one.
    await revokeKey(db, made[0].id, account);
    expect(await disabled()).toEqual(["k3", "k4"]);
    expect(await changePlan(db, account, "pro", new Date())).toMatchObject({ disabledKeys: 0, enabledKeys: 2 });
    expect(await disabled()).toEqual([]);
  });

  it("made per UTC day are capped by the plan, rotations included", async () => {
    const account = await ensureAccount(db, null, "free");
    // Ten keys made "today" whichever side of midnight the test runs: created a day ahead, they
    // count on today's and tomorrow's tally alike. One is live.
    await sql`insert into api_keys (id, account_id, name, prefix, hash, created_at, revoked_at)
      select 'key_day_' || i || ${account}, ${account}, 'k', 'ocd_live_x', 'hash_day_' || i || ${account},
             now() + interval '1 day',
             case when i > 1 then now() end
        from generate_series(1, 10) i`;
    const message = "The Free plan allows 10 new API keys a day, rotations included; try again after 00:00 UTC.";
    await expect(rotateKey(db, `key_day_1${account}`, account)).rejects.toThrow(new Forbidden(message));
    await expect(createKey(db, account)).rejects.toThrow(new Forbidden(message));
    const [{ keys }] = await sql<
      { keys: number }[]
    >`select count(*)::int as keys from api_keys where account_id = ${account}`;
    expect(keys).toBe(10);
  });
});
