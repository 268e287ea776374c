import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { alertDetail, alertList, alert as alertSchema, createdAlert } from "@/lib/api/schemas/alerts";
import { changePlan } from "@/lib/billing/plan-change";
import { api, expectError, expectShape, newKey, testDb } from "./helpers";

const conditions = { max_market_cap_usd: 500000, min_liquidity_usd: 1000, exclude_flags: ["wash_trading"] };
const create = (key: string, body: unknown) => api("/v1/alerts", { key, method: "POST", body });

describe("POST /v1/alerts", () => {
  it("creates an active alert with a system id and no last_triggered_at", async () => {
    const { key } = await newKey("pro");
    const res = await create(key, { name: "cheap and liquid", conditions });
    expect(res.status).toBe(201);
    const body = expectShape(createdAlert, res.body);
    expect(body.id).toMatch(/^alrt_/);
    expect(body.status).toBe("active");
    expect(body.notification_channel).toBe("email");
    expect(body.conditions).toEqual(conditions);
    expect(res.body).not.toHaveProperty("last_triggered_at");
  });

  const invalid: [string, unknown, string][] = [
    ["no name", { conditions }, "name"],
    ["empty name", { name: " ", conditions }, "name"],
    ["no conditions", { name: "x" }, "conditions"],
    ["empty conditions", { name: "x", conditions: {} }, "conditions"],
    ["unknown condition", { name: "x", conditions: { min_price: 1 } }, "conditions"],
    ["sort as condition", { name: "x", conditions: { sort: "newest" } }, "conditions"],
    ["string number", { name: "x", conditions: { max_risk_score: "50" } }, "conditions.max_risk_score"],
    ["risk out of range", { name: "x", conditions: { max_risk_score: 120 } }, "conditions.max_risk_score"],
    ["flags as string", { name: "x", conditions: { exclude_flags: "wash_trading" } }, "conditions.exclude_flags"],
    ["unknown flag", { name: "x", conditions: { exclude_flags: ["rug"] } }, "conditions.exclude_flags.0"],
    ["unknown channel", { name: "x", conditions, notification_channel: "sms" }, "notification_channel"],
    ["webhook without url", { name: "x", conditions, notification_channel: "webhook" }, "webhook_url"],
    ["unknown field", { name: "x", conditions, colour: "red" }, "body"],
    ["array body", [1, 2], "body"],
  ];
  it.each(invalid)("rejects %s with 400", async (_name, body, param) => {
    const { key } = await newKey("pro");
    const res = await create(key, body);
    expectError(res, 400, "INVALID_PARAMS");
    expect(res.body.error.param.startsWith(param.split(".")[0])).toBe(true);
  });

  it("rejects a body that is not JSON", async () => {
    const { key } = await newKey("pro");
    const res = await api("/v1/alerts", {
      key,
      method: "POST",
      rawBody: "{name:",
      headers: { "Content-Type": "application/json" },
    });
    expectError(res, 400, "INVALID_PARAMS", "body");
  });

  it("allows a Free account 3 active alerts and answers 403 to the 4th", async () => {
    const { key } = await newKey("free");
    for (let i = 0; i < 3; i++) expect((await create(key, { name: `a${i}`, conditions })).status).toBe(201);
    expectError(await create(key, { name: "a4", conditions }), 403, "FORBIDDEN");
    expect((await api("/v1/alerts", { key })).body.total).toBe(3);
  });

  it("holds the Free limit when creations race", async () => {
    const { key } = await newKey("free");
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => create(key, { name: `r${i}`, conditions })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 403)).toHaveLength(3);
  });

  it("gates the webhook channel to Pro and API Tier", async () => {
    const free = await newKey("free");
    const body = { name: "hook", conditions, notification_channel: "webhook", webhook_url: "http://127.0.0.1:9/hook" };
    expectError(await create(free.key, body), 403, "FORBIDDEN");
    const pro = await newKey("pro");
    const res = await create(pro.key, body);
    expect(res.status).toBe(201);
    expect(res.body.webhook_secret).toMatch(/^whsec_/);
    // the secret is shown once
    expect((await api(`/v1/alerts/${res.body.id}`, { key: pro.key })).body).not.toHaveProperty("webhook_secret");
  });
});

describe("GET/PATCH/DELETE /v1/alerts", () => {
  it("lists only the calling key's alerts, with last_triggered_at", async () => {
    const a = await newKey("pro");
    const b = await newKey("pro");
    const mine = await create(a.key, { name: "mine", conditions });
    await create(b.key, { name: "theirs", conditions });
    const list = expectShape(alertList, (await api("/v1/alerts", { key: a.key })).body);
    expect(list.data.map((x) => x.id)).toEqual([mine.body.id]);
    expect(list.data[0].last_triggered_at).toBeNull();
    expect(list.total).toBe(1);
    for (const path of [`/v1/alerts/${mine.body.id}`]) {
      expectError(await api(path, { key: b.key }), 404, "NOT_FOUND");
      expectError(await api(path, { key: b.key, method: "PATCH", body: { name: "hijack" } }), 404, "NOT_FOUND");
      expectError(await api(path, { key: b.key, method: "DELETE" }), 404, "NOT_FOUND");
    }
    expect((await api(`/v1/alerts/${mine.body.id}`, { key: a.key })).body.name).toBe("mine");
  });

  it("pauses, resumes within the plan limit, and deletes", async () => {
    const { key, accountId } = await newKey("free");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(key, { name: `a${i}`, conditions })).body.id);
    const paused = await api(`/v1/alerts/${ids[0]}`, { key, method: "PATCH", body: { status: "paused" } });
    expect(expectShape(alertSchema, paused.body).status).toBe("paused");
    expect((await api("/v1/alerts", { key })).body.total).toBe(2);
    expect((await api("/v1/alerts?status=all", { key })).body.total).toBe(3);
    expect((await api("/v1/alerts?status=paused", { key })).body.data[0].id).toBe(ids[0]);

    const fourth = await create(key, { name: "a3", conditions });
    expect(fourth.status).toBe(201);
    expectError(
      await api(`/v1/alerts/${ids[0]}`, { key, method: "PATCH", body: { status: "active" } }),
      403,
      "FORBIDDEN",
    );

    await changePlan(testDb(), accountId, "pro", new Date());
    expect((await api(`/v1/alerts/${ids[0]}`, { key, method: "PATCH", body: { status: "active" } })).status).toBe(200);

    const del = await api(`/v1/alerts/${ids[1]}`, { key, method: "DELETE" });
    expect(del.status).toBe(204);
    expectError(await api(`/v1/alerts/${ids[1]}`, { key }), 404, "NOT_FOUND");
  });

  it.each([
    ["Pro", 100, "pro"],
    ["API Tier", 1000, "api_tier"],
  ] as const)("cap active alerts on %s too, at %i: one more is 403 until one is paused", async (label, cap, plan) => {
    const { key, id, accountId } = await newKey(plan);
    const [first] = await testDb().execute<{ id: string }>(sql`
      insert into alerts (id, key_id, account_id, name, conditions)
      select 'alrt_' || left(md5(${id} || i), 20), ${id}, ${accountId}, 'a' || i, '{"max_risk_score":50}'
        from generate_series(1, ${cap}) i
      returning id`);
    const refused = await create(key, { name: "one more", conditions });
    expectError(refused, 403, "FORBIDDEN");
    expect(refused.body.error.message).toBe(
      `The ${label} plan allows ${cap} active alerts; pause or delete one first.`,
    );
    expect((await api(`/v1/alerts/${first.id}`, { key, method: "PATCH", body: { status: "paused" } })).status).toBe(
      200,
    );
    expect((await create(key, { name: "one more", conditions })).status).toBe(201);
  });

  it("changes name and conditions and shows recent deliveries", async () => {
    const { key } = await newKey("pro");
    const { id } = (await create(key, { name: "x", conditions })).body;
    const res = await api(`/v1/alerts/${id}`, {
      key,
      method: "PATCH",
      body: { name: "y", conditions: { max_risk_score: 30 } },
    });
    expect(res.body.name).toBe("y");
    expect(res.body.conditions).toEqual({ max_risk_score: 30 });
    const detail = expectShape(alertDetail, (await api(`/v1/alerts/${id}`, { key })).body);
    expect(detail.deliveries).toEqual([]);
  });

  const badPatches: [string, unknown, string][] = [
    ["empty patch", {}, "body"],
    ["unknown status", { status: "deleted" }, "status"],
    ["bad conditions", { conditions: { max_risk_score: -5 } }, "conditions"],
  ];
  it.each(badPatches)("rejects %s", async (_n, body, param) => {
    const { key } = await newKey("pro");
    const { id } = (await create(key, { name: "x", conditions })).body;
    const res = await api(`/v1/alerts/${id}`, { key, method: "PATCH", body });
    expectError(res, 400, "INVALID_PARAMS");
    expect(res.body.error.param.startsWith(param)).toBe(true);
  });

  it("400s a malformed alert id and 404s an unknown one", async () => {
    expectError(await api("/v1/alerts/nope"), 400, "INVALID_PARAMS", "id");
    expectError(await api(`/v1/alerts/alrt_${"A".repeat(20)}`), 404, "NOT_FOUND");
  });
});
