import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setKeyLimits } from "@/lib/billing/contract";
import { changePlan } from "@/lib/billing/plan-change";
import { createKey, revokeKey, rotateKey } from "@/lib/keys/store";
import { api, expectError, newKey, testDb } from "./helpers";

const ROUTES = [
  "/v1/tokens",
  `/v1/tokens/0x${"a".repeat(40)}`,
  `/v1/wallets/0x${"a".repeat(40)}`,
  `/v1/wallets/0x${"a".repeat(40)}/events`,
  `/v1/wallets/0x${"a".repeat(40)}/positions`,
  `/v1/wallets/0x${"a".repeat(40)}/launches`,
  `/v1/tokens/0x${"a".repeat(40)}/ohlcv`,
  `/v1/tokens/0x${"a".repeat(40)}/holders`,
  `/v1/tokens/0x${"a".repeat(40)}/pools`,
  "/v1/search?q=a",
  "/v1/events",
  `/v1/scores/wallet/0x${"a".repeat(40)}`,
  `/v1/scores/token/0x${"a".repeat(40)}`,
  "/v1/alerts",
];

// A meter's minute window (a Free or Pro key's is its account's) last moved `ago` seconds ago,
// with `count` requests in that second, by the database's clock.
const seedWindow = async (meter: string, ago: number, count: number) =>
  testDb().execute(sql`
    insert into rate_limit_windows (key_id, second, total, counts)
    select ${meter}, s, ${count},
           (select array_agg(case when i = s % 61 then ${count} else 0 end order by i) from generate_series(0, 60) i)
      from (select floor(extract(epoch from clock_timestamp()))::bigint - ${ago} as s) now`);
// A meter's usage today and tomorrow, so a test that runs across midnight sees the same.
const seedDay = async (meter: string, requests: number) =>
  testDb().execute(sql`insert into usage_daily (key_id, day, requests)
    select ${meter}, (now() at time zone 'utc')::date + d, ${requests} from generate_series(0, 1) d`);

describe("authentication", () => {
  const cases: [string, () => Promise<Record<string, string>>][] = [
    ["missing", async () => ({})],
    ["not Bearer", async () => ({ Authorization: `Basic ${(await newKey()).key}` })],
    ["malformed", async () => ({ Authorization: "Bearer not-a-key" })],
    ["unknown", async () => ({ Authorization: `Bearer ocd_live_${"x".repeat(32)}` })],
    [
      "revoked",
      async () => {
        const k = await newKey();
        await revokeKey(testDb(), k.id);
        return { Authorization: `Bearer ${k.key}` };
      },
    ],
  ];
  it.each(cases)("answers 401 on every route for a %s key", async (_name, headers) => {
    const h = await headers();
    for (const path of ROUTES) {
      const res = await api(path, { key: null, headers: h });
      expectError(res, 401, "UNAUTHORIZED");
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });

  it("refuses a key as soon as it is revoked", async () => {
    const k = await newKey();
    expect((await api("/v1/tokens?limit=1", { key: k.key })).status).toBe(200);
    await revokeKey(testDb(), k.id);
    expectError(await api("/v1/tokens?limit=1", { key: k.key }), 401, "UNAUTHORIZED");
  });

  it("stores no secret: only a hash and a short display prefix", async () => {
    const k = await newKey();
    const rows = await testDb().execute<{ dump: string }>(sql`select row_to_json(k)::text as dump from api_keys k`);
    const all = rows.map((r) => r.dump).join("\n");
    expect(all).not.toContain(k.key);
    expect(all).not.toContain(k.key.slice(9));
    expect(all).toContain(k.key.slice(0, 13));
  });
});

describe("rate limits", () => {
  it("gives a Free key 10 requests a minute, then 429 with Retry-After", async () => {
    const k = await newKey("free");
    const results = await Promise.all(Array.from({ length: 14 }, () => api("/v1/tokens?limit=1", { key: k.key })));
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(10);
    expect(limited).toHaveLength(4);
    for (const r of limited) {
      expectError(r, 429, "RATE_LIMITED");
      const retry = Number(r.headers.get("retry-after"));
      expect(Number.isInteger(retry)).toBe(true);
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(61);
      expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
    }
    const remaining = ok.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const [usage] = await testDb().execute<{ requests: number; rejected: number }>(
      sql`select requests, rejected from usage_daily where key_id = ${k.id}`,
    );
    expect(usage).toEqual({ requests: 10, rejected: 4 });
  });

  it("counts the requests of the last minute and forgets older ones", async () => {
    const [stale, recent] = [await newKey("free"), await newKey("free")];
    await seedWindow(stale.accountId, 120, 10);
    await seedWindow(recent.accountId, 5, 4);
    const [a, b] = [
      await api("/v1/tokens?limit=1", { key: stale.key }),
      await api("/v1/tokens?limit=1", { key: recent.key }),
    ];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.headers.get("x-ratelimit-remaining")).toBe("9");
    expect(b.headers.get("x-ratelimit-remaining")).toBe("5");
    const windows = await testDb().execute<{ key_id: string; total: number }>(
      sql`select key_id, total from rate_limit_windows where key_id in (${stale.accountId}, ${recent.accountId})`,
    );
    expect(Object.fromEntries(windows.map((w) => [w.key_id, w.total]))).toEqual({
      [stale.accountId]: 1,
      [recent.accountId]: 5,
    });
  });

  it("carries X-RateLimit headers on every keyed response, errors included", async () => {
    const k = await newKey("pro");
    const before = Math.floor(Date.now() / 1000);
    for (const path of ["/v1/tokens?limit=1", "/v1/tokens?limit=0", `/v1/tokens/0x${"1".repeat(40)}`]) {
      const res = await api(path, { key: k.key });
      expect(res.headers.get("x-ratelimit-limit")).toBe("60");
      expect(Number(res.headers.get("x-ratelimit-remaining"))).toBeGreaterThanOrEqual(0);
      expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThanOrEqual(before);
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    }
  });

  it("enforces the daily limit until the next UTC midnight", async () => {
    const k = await newKey("free");
    await seedDay(k.accountId, 100);
    const sent = Date.now() / 1000;
    const res = await api("/v1/tokens?limit=1", { key: k.key });
    const answered = Date.now() / 1000;
    expectError(res, 429, "RATE_LIMITED");
    // The window that binds resets at a UTC midnight, and Retry-After counts down to it.
    const reset = Number(res.headers.get("x-ratelimit-reset"));
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(reset % 86_400).toBe(0);
    expect(reset - retryAfter).toBeGreaterThanOrEqual(Math.floor(sent) - 1);
    expect(reset - retryAfter).toBeLessThanOrEqual(Math.ceil(answered) + 1);
    expect(res.headers.get("x-ratelimit-limit")).toBe("100");
  });

  it("limits a key exactly on the routes that read in the round trip that authorizes them", async () => {
    const k = await newKey("free");
    const paths = ROUTES.filter((p) =>
      /^\/v1\/(tokens|wallets)\/0x[a-f0-9]{40}(\/(holders|pools|ohlcv|positions))?$/.test(p),
    );
    expect(paths).toHaveLength(6);
    const results = await Promise.all(
      Array.from({ length: 14 }, (_, i) => api(paths[i % paths.length], { key: k.key })),
    );
    // The addresses are not indexed: what the key may read answers 404, the rest 429.
    expect(results.filter((r) => r.status === 404)).toHaveLength(10);
    for (const r of results.filter((r) => r.status !== 404)) expectError(r, 429, "RATE_LIMITED");
    const [usage] = await testDb().execute<{ requests: number; rejected: number }>(
      sql`select requests, rejected from usage_daily where key_id = ${k.id}`,
    );
    expect(usage).toEqual({ requests: 10, rejected: 4 });
  });

  it("share a Free account's window: a rotated, replaced or second key starts no new one, racing too", async () => {
    const first = await newKey("free");
    const get = (key: string) => api("/v1/tokens?limit=1", { key });
    const statuses = async (key: string, n: number) =>
      (await Promise.all(Array.from({ length: n }, () => get(key)))).map((r) => r.status);
    expect(await statuses(first.key, 6)).toEqual(Array(6).fill(200));

    const rotated = (await rotateKey(testDb(), first.id, first.accountId))!;
    const second = await createKey(testDb(), first.accountId, "second");
    // 4 requests left in the account's minute: 8 racing over two keys get exactly 4.
    const raced = (await Promise.all([statuses(rotated.key, 4), statuses(second.key, 4)])).flat();
    expect(raced.filter((s) => s === 200)).toHaveLength(4);
    await revokeKey(testDb(), second.id, first.accountId);
    const replaced = await createKey(testDb(), first.accountId, "replaced");
    const refused = await get(replaced.key);
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.headers.get("x-ratelimit-limit")).toBe("10");

    // The day too: the account's count binds whichever key asks.
    const other = await newKey("free");
    await seedDay(other.accountId, 100);
    const rotatedOther = (await rotateKey(testDb(), other.id, other.accountId))!;
    const dayRefused = await get(rotatedOther.key);
    expectError(dayRefused, 429, "RATE_LIMITED");
    expect(dayRefused.headers.get("x-ratelimit-limit")).toBe("100");
  });

  it("keep an API Tier key's own limits per key, through a rotation, beside the account's other keys", async () => {
    const k = await newKey("api_tier");
    await setKeyLimits(testDb(), k.accountId, k.id, { ratePerMinute: 3 });
    const get = (key: string) => api("/v1/tokens?limit=1", { key });
    for (let i = 0; i < 3; i++) expect((await get(k.key)).status).toBe(200);
    const rotated = (await rotateKey(testDb(), k.id, k.accountId))!;
    const refused = await get(rotated.key);
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.headers.get("x-ratelimit-limit")).toBe("3");
    // Another key of the account has its own window, and the plan's default limits.
    const other = await createKey(testDb(), k.accountId, "other");
    expect((await get(other.key)).headers.get("x-ratelimit-limit")).toBe("1000");
    // The account's meter counts every request of its keys (for a plan change within the day).
    const [account] = await testDb().execute<{ requests: number; rejected: number }>(
      sql`select sum(requests)::int as requests, sum(rejected)::int as rejected
            from usage_daily where key_id = ${k.accountId}`,
    );
    expect(account).toEqual({ requests: 4, rejected: 1 });
  });

  it("refuse a key its account's plan disabled (403), until an upgrade brings it back", async () => {
    const oldest = await newKey("pro");
    const keys = [
      oldest,
      await createKey(testDb(), oldest.accountId, "b"),
      await createKey(testDb(), oldest.accountId, "c"),
    ];
    await changePlan(testDb(), oldest.accountId, "free", new Date());
    const answers = await Promise.all(keys.map((k) => api("/v1/tokens?limit=1", { key: k.key })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 403]);
    expectError(answers[2], 403, "FORBIDDEN");
    expect(answers[2].body.error.message).toMatch(/^This API key is disabled/);
    // Refused before anything is read or counted, on the routes that read in the round trip that authorizes them too.
    expectError(await api(`/v1/tokens/0x${"a".repeat(40)}`, { key: keys[2].key }), 403, "FORBIDDEN");
    const [counted] = await testDb().execute<{ n: number }>(
      sql`select count(*)::int as n from usage_daily where key_id = ${keys[2].id}`,
    );
    expect(counted.n).toBe(0);
    await changePlan(testDb(), oldest.accountId, "pro", new Date());
    expect((await api("/v1/tokens?limit=1", { key: keys[2].key })).status).toBe(200);
  });

  it("meters usage per key per day", async () => {
    const k = await newKey("pro");
    for (let i = 0; i < 3; i++) await api("/v1/tokens?limit=1", { key: k.key });
    const [row] = await testDb().execute<{ requests: number }>(
      sql`select requests from usage_daily where key_id = ${k.id}`,
    );
    expect(row.requests).toBe(3);
  });
});

describe("the order of errors", () => {
  // Each route with a parameter it refuses: a malformed address, or a limit of 0.
  const refused = ROUTES.map((p) =>
    p.includes(`0x${"a".repeat(40)}`)
      ? p.replace(`0x${"a".repeat(40)}`, "0xnope")
      : `${p}${p.includes("?") ? "&" : "?"}limit=0`,
  );

  it("answers 401 for an unknown key and 429 for a limited one before it looks at the parameters", async () => {
    const limited = await newKey("free");
    await seedDay(limited.accountId, 100);
    for (const path of refused) {
      expectError(await api(path), 400, "INVALID_PARAMS");
      expectError(await api(path, { key: `ocd_live_${"x".repeat(32)}` }), 401, "UNAUTHORIZED");
      expectError(await api(path, { key: limited.key }), 429, "RATE_LIMITED");
    }
  });
});

describe("unknown paths and methods", () => {
  it("answers 404 with the error body under /v1", async () => {
    expectError(await api("/v1/nope"), 404, "NOT_FOUND");
    expectError(await api("/v1/tokens/x/y/z"), 404, "NOT_FOUND");
  });
  it("answers 405 with the error body for a wrong method", async () => {
    const res = await api("/v1/tokens", { method: "DELETE" });
    expectError(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toBe("GET");
  });
});
