import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { accounts, alerts, apiKeys } from "@/db/schema";
import { createAlert } from "@/lib/alerts/service";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { createTestDatabase } from "@/tests/setup/database";

/** The keys CLI as an operator runs it, against a database of the test's own. */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let client: ReturnType<typeof connect>;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase("keys_cli_test");
  await runMigrations(database.url);
  client = connect(database.url, { max: 2 });
  db = createDb(client);
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

async function keys(...args: string[]): Promise<{ code: number; out: string }> {
  const env = { ...process.env, DATABASE_URL: database.url, STRIPE_SECRET_KEY: "" };
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", "scripts/keys.ts", ...args],
      { env },
    );
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, out: e.stderr };
  }
}

// Each run of the CLI starts a process of its own (about a second).
describe("keys CLI: plans and limits", { timeout: 60_000 }, () => {
  it("set-plan moves the account, pauses the alerts and disables the keys the new plan does not allow", async () => {
    const accountId = await ensureAccount(db, "cli-plan@example.com", "pro");
    const key = await createKey(db, accountId);
    for (const name of ["second", "newest"]) await createKey(db, accountId, name);
    const conditions = { min_liquidity_usd: 1000 };
    for (const name of ["a", "b", "c", "d"])
      await createAlert(db, { keyId: key.id, accountId }, { name, conditions, notification_channel: "email" });

    const res = await keys("set-plan", key.id, "free");
    expect(res).toEqual({
      code: 0,
      out: `Account ${accountId} is now on free (1 alert beyond its limits paused, 1 key beyond its cap disabled).\n`,
    });
    const disabled = await db
      .select({ name: apiKeys.name })
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, accountId), isNotNull(apiKeys.disabledAt)));
    expect(disabled).toEqual([{ name: "newest" }]);
    expect((await keys("set-plan", accountId, "pro")).out).toBe(
      `Account ${accountId} is now on pro (1 disabled key enabled again).\n`,
    );
    expect((await keys("set-plan", accountId, "free")).code).toBe(0);
    const statuses = await db.select({ status: alerts.status }).from(alerts).where(eq(alerts.accountId, accountId));
    expect(statuses.map((s) => s.status).sort()).toEqual(["active", "active", "active", "paused"]);
    expect((await db.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId)))[0].plan).toBe(
      "free",
    );
  });

  it("set-limits and set-contract keep API Tier keys within the account's contract", async () => {
    const accountId = await ensureAccount(db, "cli-limits@example.com", "api_tier");
    const key = await createKey(db, accountId);

    const above = await keys("set-limits", key.id, "--per-minute", "5000");
    expect(above.code).toBe(2);
    expect(above.out).toContain("rate_per_minute: at most 1000 under the account's contract.");

    expect((await keys("set-contract", accountId, "--per-minute", "5000", "--per-day", "2000000")).code).toBe(0);
    expect(await keys("set-limits", key.id, "--per-minute", "5000")).toEqual({
      code: 0,
      out: `Key ${key.id}: 5000 per minute, plan default per day.\n`,
    });
    expect((await keys("set-limits", key.id, "--per-day", "lots")).out).toContain(
      '--per-day takes a whole number of requests from 1, or "default".',
    );

    expect((await keys("set-plan", accountId, "pro")).code).toBe(0);
    const [limits] = await db.select({ perMinute: apiKeys.ratePerMinute }).from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(limits.perMinute).toBeNull();
    expect((await keys("set-limits", key.id, "--per-minute", "10")).out).toContain("on the API Tier plan only");
  });
});
