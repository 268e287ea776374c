import { and, arrayOverlaps, eq, not, type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { alerts, tokenMetrics } from "@/db/schema";
import { updateAlert } from "@/lib/alerts/service";
import { Forbidden } from "@/lib/domain/errors";
import { type FilterColumn, filterBounds, type TokenFilter } from "@/lib/domain/token-filter";
import { revokeKey } from "@/lib/keys/store";
import { AlertEvaluator } from "./evaluate";
import * as stored from "./test/fixtures";
import {
  alertsDatabase,
  minutes,
  newAddress,
  newAlert,
  newOwner,
  notificationsOf,
  setToken,
  T0,
} from "./test/fixtures";

/** The filter evaluated by PostgreSQL over token_metrics: what the evaluator's in-memory sets must equal. */
function tokenFilterSql(filter: TokenFilter, now: Date): SQL | undefined {
  const column: Record<FilterColumn, SQL> = {
    liquidityUsd: sql`${tokenMetrics.liquidityUsd}`,
    marketCapUsd: sql`${tokenMetrics.marketCapUsd}`,
    riskScore: sql`${tokenMetrics.riskScore}`,
    holderGrowth1hPct: sql`${tokenMetrics.holderGrowth1hPct}`,
    createdAtMs: sql`extract(epoch from ${tokenMetrics.createdAt}) * 1000`,
  };
  const conditions = filterBounds(filter, now).map(
    (b) => sql`${column[b.column]} ${sql.raw(b.side === "min" ? ">=" : "<=")} ${b.value}`,
  );
  if (filter.exclude_flags?.length) conditions.push(not(arrayOverlaps(tokenMetrics.riskFlags, filter.exclude_flags)));
  return and(...conditions);
}

let t: Awaited<ReturnType<typeof alertsDatabase>>;
beforeAll(async () => {
  t = await alertsDatabase();
});
let evaluator: AlertEvaluator;
beforeEach(async () => {
  await t.reset();
  evaluator = new AlertEvaluator();
});
afterAll(async () => {
  await t?.close();
});

const LIQUID = { liquidityUsd: 50_000, riskScore: 10 };
const DRY = { liquidityUsd: 10, riskScore: 10 };
const CONDITIONS: TokenFilter = { min_liquidity_usd: 10_000, max_risk_score: 40 };

const matchesOf = (alertId: string) => stored.matchesOf(t.sql, alertId);

const listed = (n: { payload: { matches: { address: string }[] } }) => n.payload.matches.map((m) => m.address).sort();

describe("alert evaluation", { timeout: 60_000 }, () => {
  it("fires for tokens that newly match, with the values that made them match, once", async () => {
    const owner = await newOwner(t.db);
    const alert = await newAlert(t.db, owner, CONDITIONS);
    const [a, b, c] = [newAddress(), newAddress(), newAddress()];
    await setToken(t.sql, a, { ...LIQUID, name: "Alpha", symbol: "ALP" });
    await setToken(t.sql, b, { liquidityUsd: 5_000, riskScore: 10 });
    await setToken(t.sql, c, { liquidityUsd: 50_000, riskScore: 80 });

    const first = await evaluator.evaluate(t.sql, T0);
    expect(first.fired).toBe(1);
    const [n] = await notificationsOf(t.sql, alert.id);
    expect(n).toMatchObject({ channel: "email", recipient: owner.email, status: "pending", attempts: 0 });
    expect(n.payload.matches).toEqual([
      expect.objectContaining({
        address: a,
        name: "Alpha",
        symbol: "ALP",
        values: { liquidity_usd: 50_000, risk_score: 10 },
      }),
    ]);
    expect(n.payload.total_matches).toBe(1);
    expect(await matchesOf(alert.id)).toEqual([{ address: a, notified: true }]);
    const [row] = await t.db.select().from(alerts).where(eq(alerts.id, alert.id));
    expect(row.lastTriggeredAt?.toISOString()).toBe(T0.toISOString());

    // Nothing changed: nothing is written, nothing fires, even after the cooldown.
    const again = await evaluator.evaluate(t.sql, minutes(T0, 30));
    expect(again).toMatchObject({ changed: 0, inserted: 0, deleted: 0 });
    expect(await notificationsOf(t.sql, alert.id)).toHaveLength(1);
  });

  it("fires at most once per 15 minutes, batching what newly matched meanwhile and still matches", async () => {
    const owner = await newOwner(t.db);
    const alert = await newAlert(t.db, owner, CONDITIONS);
    const [a, b, c, d] = [newAddress(), newAddress(), newAddress(), newAddress()];
    await setToken(t.sql, a, LIQUID);
    await evaluator.evaluate(t.sql, T0);
    expect(await notificationsOf(t.sql, alert.id)).toHaveLength(1);

    await setToken(t.sql, b, LIQUID);
    await evaluator.evaluate(t.sql, minutes(T0, 5));
    await setToken(t.sql, c, LIQUID);
    await setToken(t.sql, d, LIQUID);
    await evaluator.evaluate(t.sql, minutes(T0, 10));
    // d matched for a while and stopped before the alert could fire again: not reported.
    await setToken(t.sql, d, DRY);
    await evaluator.evaluate(t.sql, minutes(T0, 14.9));
    expect(await notificationsOf(t.sql, alert.id)).toHaveLength(1);
    expect(await matchesOf(alert.id)).toEqual([
      { address: a, notified: true },
      { address: b, notified: false },
      { address: c, notified: false },
    ]);

    await evaluator.evaluate(t.sql, minutes(T0, 15));
    const sent = await notificationsOf(t.sql, alert.id);
    expect(sent).toHaveLength(2);
    expect(listed(sent[1])).toEqual([b, c]);
    expect(sent[1].payload.total_matches).toBe(2);
    const [row] = await t.db.select().from(alerts).where(eq(alerts.id, alert.id));
    expect(row.lastTriggeredAt?.toISOString()).toBe(minutes(T0, 15).toISOString());
  });

  it("fires again for a token that stops matching and matches again", async () => {
    const owner = await newOwner(t.db);
    const alert = await newAlert(t.db, owner, CONDITIONS);
    const a = newAddress();
    await setToken(t.sql, a, LIQUID);
    await evaluator.evaluate(t.sql, T0);
    await setToken(t.sql, a, DRY);
    await evaluator.evaluate(t.sql, minutes(T0, 1));
    expect(await matchesOf(alert.id)).toEqual([]);
    // Back within the cooldown: it waits for the cooldown, then fires.
    await setToken(t.sql, a, LIQUID);
    await evaluator.evaluate(t.sql, minutes(T0, 2));
    expect(await notificationsOf(t.sql, alert.id)).toHaveLength(1);
    await evaluator.evaluate(t.sql, minutes(T0, 16));
    const sent = await notificationsOf(t.sql, alert.id);
    expect(sent.map(listed)).toEqual([[a], [a]]);
  });

  it("forgets a token that is deleted (a reorg recomputing it) and fires when it is back", async () => {
    const owner = await newOwner(t.db);
    const alert = await newAlert(t.db, owner, CONDITIONS);
    const [a, b] = [newAddress(), newAddress()];
    await setToken(t.sql, a, LIQUID);
    await setToken(t.sql, b, LIQUID);
    await evaluator.evaluate(t.sql, T0);
    await t.sql`delete from tokens where address = ${a}`;
    await evaluator.evaluate(t.sql, minutes(T0, 1));
    expect(await matchesOf(alert.id)).toEqual([{ address: b, notified: true }]);
    await setToken(t.sql, a, LIQUID);
    await evaluator.evaluate(t.sql, minutes(T0, 20));
    expect((await notificationsOf(t.sql, alert.id)).map(listed)).toEqual([[a, b].sort(), [a]]);
  });

  it("keeps paused alerts silent, and reports what matches when they resume", async () => {
    const owner = await newOwner(t.db);
    const alert = await newAlert(t.db, owner, CONDITIONS);
    const [a, b] = [newAddress(), newAddress()];
    await setToken(t.sql, a, LIQUID);
    await evaluator.evaluate(t.sql, T0);
    await updateAlert(t.db, owner, alert.id, { status: "paused" });

    await setToken(t.sql, b, LIQUID);
    const paused = await evaluator.evaluate(t.sql, minutes(T0, 30));
    expect(paused.cleared).toBe(1);
    expect(await matchesOf(alert.id)).toEqual([]);
    await evaluator.evaluate(t.sql, minutes(T0, 60));
    expect(await notificationsOf(t.sql, alert.id)).toHaveLength(1);

    await updateAlert(t.db, owner, alert.id, { status: "active" });
    await evaluator.evaluate(t.sql, minutes(T0, 61));
    const sent = await notificationsOf(t.sql, alert.id);
    expect(sent).toHaveLength(2);
    expect(listed(sent[1])).toEqual([a, b].sort());
  });

  it("sends each account's alerts to that account only, and nothing for a revoked key", async () => {
    const x = await newOwner(t.db, "pro", "x-owner@example.com");
    const y = await newOwner(t.db, "api_tier", "y-owner@example.com");
    const [tx, ty] = [newAddress(), newAddress()];
    await setToken(t.sql, tx, { liquidityUsd: 1_000_001, riskScore: 1 });
    await setToken(t.sql, ty, { liquidityUsd: 10, riskScore: 1, holderGrowth1hPct: 500 });
    const ax = await newAlert(t.db, x, { min_liquidity_usd: 1_000_000 });
    const ay = await newAlert(t.db, y, { min_holder_growth_1h_pct: 400 });
    const z = await newOwner(t.db, "pro", "z-owner@example.com");
    const az = await newAlert(t.db, z, { min_liquidity_usd: 1_000_000 });
    await revokeKey(t.db, z.keyId);

    await evaluator.evaluate(t.sql, T0);
    const [nx] = await notificationsOf(t.sql, ax.id);
    const [ny] = await notificationsOf(t.sql, ay.id);
    expect({ to: nx.recipient, tokens: listed(nx) }).toEqual({ to: "x-owner@example.com", tokens: [tx] });
    expect({ to: ny.recipient, tokens: listed(ny) }).toEqual({ to: "y-owner@example.com", tokens: [ty] });
    expect(await notificationsOf(t.sql, az.id)).toEqual([]);
    const [{ n }] = await t.sql<
      { n: number }[]
    >`select count(*)::int as n from notifications where recipient = 'z-owner@example.com'`;
    expect(n).toBe(0);
  });

  it("lets a Free account's three alerts fire, refuses a fourth and its webhooks", async () => {
    const owner = await newOwner(t.db, "free");
    const a = newAddress();
    await setToken(t.sql, a, { ...LIQUID, marketCapUsd: 123_456 });
    const created = [
      await newAlert(t.db, owner, { min_market_cap_usd: 123_456 }),
      await newAlert(t.db, owner, { max_market_cap_usd: 123_456, min_liquidity_usd: 1 }),
      await newAlert(t.db, owner, { min_market_cap_usd: 100_000, exclude_flags: ["wash_trading"] }),
    ];
    await expect(newAlert(t.db, owner, { min_market_cap_usd: 1 })).rejects.toBeInstanceOf(Forbidden);
    await expect(
      newAlert(
        t.db,
        owner,
        { min_market_cap_usd: 1 },
        { notification_channel: "webhook", webhook_url: "https://example.com/h" },
      ),
    ).rejects.toBeInstanceOf(Forbidden);

    await evaluator.evaluate(t.sql, T0);
    for (const alert of created) {
      const sent = await notificationsOf(t.sql, alert.id);
      expect(sent.map(listed)).toEqual([[a]]);
      expect(sent[0].recipient).toBe(owner.email);
    }
  });

  it("marks a notification failed at once when the account has no email address", async () => {
    const owner = await newOwner(t.db, "pro", null);
    const alert = await newAlert(t.db, owner, CONDITIONS);
    await setToken(t.sql, newAddress(), LIQUID);
    await evaluator.evaluate(t.sql, T0);
    const [n] = await notificationsOf(t.sql, alert.id);
    expect(n).toMatchObject({
      status: "failed",
      lastError: expect.stringContaining("your account has no email address"),
    });
  });

  it("runs after a worker cycle once caught up, and while idle every IDLE_INTERVAL_MS", async () => {
    const owner = await newOwner(t.db);
    const alert = await newAlert(t.db, owner, CONDITIONS);
    await setToken(t.sql, newAddress(), LIQUID);
    const fired = async () => (await notificationsOf(t.sql, alert.id)).length;
    await evaluator.afterCycle({
      sql: t.sql,
      head: 100,
      indexedBlock: 90,
      indexedTime: T0.getTime() / 1000,
      step: "indexed",
    });
    expect(await fired()).toBe(0);
    await evaluator.afterCycle({
      sql: t.sql,
      head: 100,
      indexedBlock: 100,
      indexedTime: T0.getTime() / 1000,
      step: "idle",
    });
    expect(await fired()).toBe(1);
    // Another alert, while idle: not before the interval has passed.
    const other = await newAlert(t.db, owner, CONDITIONS);
    await evaluator.afterCycle({
      sql: t.sql,
      head: 100,
      indexedBlock: 100,
      indexedTime: T0.getTime() / 1000,
      step: "idle",
    });
    expect(await notificationsOf(t.sql, other.id)).toHaveLength(0);
    await evaluator.afterCycle({
      sql: t.sql,
      head: 101,
      indexedBlock: 101,
      indexedTime: T0.getTime() / 1000,
      step: "indexed",
    });
    expect(await notificationsOf(t.sql, other.id)).toHaveLength(1);
  });

  it("matches exactly the tokens GET /v1/tokens returns for the same filter, as conditions change", async () => {
    const owner = await newOwner(t.db);
    const filters: TokenFilter[] = [
      { max_age_hours: 2, min_liquidity_usd: 1_000 },
      { max_market_cap_usd: 500_000, max_risk_score: 50, exclude_flags: ["wash_trading", "liquidity_pulled"] },
      { min_holder_growth_1h_pct: 10 },
      { exclude_flags: ["wash_trading"] },
      { min_market_cap_usd: 250_000, max_market_cap_usd: 750_000 },
    ];
    let seed = 3;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let i = 0; i < 150; i++) {
      await setToken(t.sql, newAddress(), {
        liquidityUsd: Math.round(random() * 5_000),
        marketCapUsd: Math.round(random() * 1_000_000),
        riskScore: Math.round(random() * 100),
        holderGrowth1hPct: Math.round(random() * 40 - 10),
        createdAt: new Date(T0.getTime() - Math.round(random() * 4 * 3_600_000)),
        riskFlags: random() < 0.3 ? ["wash_trading"] : random() < 0.3 ? ["liquidity_pulled"] : [],
      });
    }
    const alert = await newAlert(t.db, owner, filters[0]);
    for (const [i, filter] of filters.entries()) {
      if (i > 0) await updateAlert(t.db, owner, alert.id, { conditions: filter });
      const now = minutes(T0, i);
      // A worker that just took over (no memory of the last cycle) reads the matches it replaces.
      await (i % 2 ? new AlertEvaluator() : evaluator).evaluate(t.sql, now);
      const expected = await t.db
        .select({ address: tokenMetrics.address })
        .from(tokenMetrics)
        .where(tokenFilterSql(filter, now));
      expect(
        (await matchesOf(alert.id)).map((m) => m.address),
        JSON.stringify(filter),
      ).toEqual(expected.map((r) => r.address).sort());
      // What it wrote is what a fresh evaluation computes: nothing left to change.
      expect(await new AlertEvaluator().evaluate(t.sql, now)).toMatchObject({ changed: 0, inserted: 0, deleted: 0 });
    }
  });
});
