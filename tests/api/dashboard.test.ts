import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changePlan } from "@/lib/billing/plan-change";
import type { Plan } from "@/lib/domain/vocab";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { OVERVIEW_URLS, STREAM_PAGE_SIZE } from "@/lib/queries/shared-views";
import { type ApiResponse, expectError } from "./helpers";
import { type OwnServer, ownServer, signedIn } from "./own-server";

/**
 * The dashboard's JSON routes and the limits around them, on a server of this file's own: a
 * public origin of http://intel.test, no email service, real webhook target checks, a pool of
 * two connections, and the tests on loopback trusted as a proxy (so X-Forwarded-For tells
 * visitors apart).
 */
const ORIGIN = "http://intel.test";
let server: OwnServer;

beforeAll(async () => {
  server = await ownServer("oci_dashboard", () => ({
    APP_URL: ORIGIN,
    WEBHOOK_ALLOW_PRIVATE: "0",
    DATABASE_POOL_MAX: "2",
    TRUSTED_PROXIES: "loopback",
  }));
});
afterAll(async () => {
  await server?.close();
});

const asResponse = async (res: Response): Promise<ApiResponse> => {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
};

/** A write from the dashboard's own page: the app's Origin and JSON. */
const write = (method: string, body?: unknown, headers: Record<string, string> = {}) => ({
  method,
  headers: { origin: ORIGIN, "content-type": "application/json", ...headers },
  body: body === undefined ? undefined : JSON.stringify(body),
});

async function apiKey(plan: Plan) {
  return createKey(server.db, await ensureAccount(server.db, null, plan), `test ${plan}`);
}
const v1 = (path: string, key: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${server.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } }).then(
    asResponse,
  );

describe("session writes (CSRF)", () => {
  it("need the app's Origin and a JSON body, whatever the cookie", async () => {
    const { browser } = await signedIn(server);
    const create = (headers: Record<string, string>) =>
      browser.fetch("/api/keys", { method: "POST", headers, body: JSON.stringify({ name: "bot" }) }).then(asResponse);
    expectError(await create({ "content-type": "application/json" }), 403, "FORBIDDEN");
    expectError(await create({ "content-type": "application/json", origin: "https://evil.example" }), 403, "FORBIDDEN");
    expectError(
      await create({ "content-type": "application/json", origin: ORIGIN, "sec-fetch-site": "cross-site" }),
      403,
      "FORBIDDEN",
    );
    // What a form on another site can send without a preflight.
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      expectError(await create({ "content-type": type, origin: ORIGIN }), 403, "FORBIDDEN");
    }
    const made = await create({ "content-type": "application/json; charset=utf-8", origin: ORIGIN });
    expect(made.status).toBe(200);
    // A write without a body too.
    expect((await browser.fetch(`/api/keys/${made.body.id}`, write("DELETE"))).status).toBe(204);
  });
});

describe("keys per account", () => {
  it("are capped by the plan: a Free account's third live key is 403, until one is revoked", async () => {
    const { browser } = await signedIn(server);
    const create = (name: string) => browser.fetch("/api/keys", write("POST", { name })).then(asResponse);
    const first = await create("one");
    expect((await create("two")).status).toBe(200);
    const third = await create("three");
    expectError(third, 403, "FORBIDDEN");
    expect(third.body.error.message).toBe("The Free plan allows 2 live API keys; revoke one first.");
    expect((await browser.fetch(`/api/keys/${first.body.id}`, write("DELETE"))).status).toBe(204);
    expect((await create("three")).status).toBe(200);
  });
});

describe("the dashboard's market routes", () => {
  let clients = 0;
  /** A visitor without an account at an address of its own (as a proxy in front reports it). */
  const visitor = () => {
    const address = `203.0.113.${++clients}`;
    return {
      address,
      fetch: (path: string) =>
        fetch(`${server.baseUrl}${path}`, { headers: { "x-forwarded-for": address } }).then(asResponse),
    };
  };
  const remaining = (res: ApiResponse) => [
    res.status,
    res.headers.get("x-ratelimit-limit"),
    res.headers.get("x-ratelimit-remaining"),
  ];

  it("refuse a visitor without an account unshared views (filters, deep pages): sign in; nothing counted", async () => {
    const anonymous = visitor();
    for (const path of ["/api/tokens?limit=1&page=2", "/api/events?limit=1&type=swap&page=2"]) {
      const refused = await anonymous.fetch(path);
      expectError(refused, 401, "UNAUTHORIZED");
      expect(refused.body.error.message).toMatch(/Sign in/);
    }
    expect(await server.sql`select key_id from usage_daily where key_id = ${`client:${anonymous.address}`}`).toEqual(
      [],
    );
  });

  it("meter a signed-in user against their account, shared with its keys, and not against their address", async () => {
    const { browser, accountId } = await signedIn(server);
    const answers = [];
    for (let i = 0; i < 10; i++)
      answers.push(remaining(await browser.fetch(`/api/tokens?limit=1&page=${i + 2}`).then(asResponse)));
    expect(answers).toEqual(Array.from({ length: 10 }, (_, i) => [200, "10", String(9 - i)]));
    const refused = await browser.fetch("/api/events?limit=1&type=swap&page=2").then(asResponse);
    expectError(refused, 429, "RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const [usage] = await server.sql`select requests, rejected from usage_daily where key_id = ${accountId}`;
    expect(usage).toEqual({ requests: 10, rejected: 1 });
    // A Pro account has the Pro plan's limits, which its keys' requests count against too.
    await changePlan(server.db, accountId, "pro", new Date());
    expect((await browser.fetch("/api/tokens?limit=1&page=2").then(asResponse)).status).toBe(200);
    const key = await createKey(server.db, accountId, "shares the account's limits");
    expect(remaining(await v1("/v1/tokens?limit=1", key.key)).slice(0, 2)).toEqual([200, "60"]);
    const counted = await server.sql`select key_id, requests from usage_daily where key_id in (${accountId}, ${key.id})
                        order by requests`;
    expect(counted).toEqual([
      { key_id: key.id, requests: 1 },
      { key_id: accountId, requests: 12 },
    ]);
    // Nothing was counted against the address the signed-in requests came from.
    expect(
      await server.sql`select key_id from usage_daily
                        where key_id like 'client:%' and key_id not like 'client:203.0.113.%'`,
    ).toEqual([]);
  });

  it("leave the views every dashboard refreshes free, signed in or not", async () => {
    const paths = ["/api/status", ...Object.values(OVERVIEW_URLS), `/api/events?limit=${STREAM_PAGE_SIZE}`];
    const anonymous = visitor();
    const { browser, accountId } = await signedIn(server);
    for (let round = 0; round < 3; round++) {
      for (const path of paths) {
        expect([path, ...remaining(await anonymous.fetch(path))]).toEqual([path, 200, null, null]);
        expect([path, ...remaining(await browser.fetch(path).then(asResponse))]).toEqual([path, 200, null, null]);
      }
    }
    expect(
      await server.sql`select key_id from usage_daily where key_id in (${accountId}, ${`client:${anonymous.address}`})`,
    ).toEqual([]);
  });

  it("leave the public pages unmetered: they read the shared cache on the server, not these routes", async () => {
    const anonymous = visitor();
    for (let i = 0; i < 12; i++) {
      for (const path of ["/", "/tokens", "/events"]) {
        const res = await fetch(`${server.baseUrl}${path}`, { headers: { "x-forwarded-for": anonymous.address } });
        expect([path, res.status]).toEqual([path, 200]);
        await res.text();
      }
    }
    expect(await server.sql`select key_id from usage_daily where key_id = ${`client:${anonymous.address}`}`).toEqual(
      [],
    );
  });

  it("answer an invalid query with the API's error, naming the parameter", async () => {
    const { browser } = await signedIn(server);
    const res = await browser.fetch("/api/tokens?min_liquidity_usd=lots").then(asResponse);
    expectError(res, 400, "INVALID_PARAMS");
    expect(res.body.error.param).toBe("min_liquidity_usd");
  });
});

describe("the dashboard's account routes", () => {
  it("need a session", async () => {
    expectError(
      await fetch(`${server.baseUrl}/api/keys`, write("POST", { name: "x" })).then(asResponse),
      401,
      "UNAUTHORIZED",
    );
    expectError(
      await fetch(`${server.baseUrl}/api/alerts`, write("POST", { name: "x" })).then(asResponse),
      401,
      "UNAUTHORIZED",
    );
  });

  it("take a request from the account's limits per write that creates; revoking and deleting stay free", async () => {
    const { browser } = await signedIn(server);
    const conditions = { min_liquidity_usd: 1000 };
    const made = await browser
      .fetch("/api/alerts", write("POST", { alert: { name: "watch", conditions } }))
      .then(asResponse);
    expect([made.status, made.headers.get("x-ratelimit-limit"), made.headers.get("x-ratelimit-remaining")]).toEqual([
      200,
      "10",
      "9",
    ]);
    const rename = (i: number) =>
      browser.fetch(`/api/alerts/${made.body.id}`, write("PATCH", { name: `watch ${i}` })).then(asResponse);
    for (let i = 0; i < 9; i++) expect((await rename(i)).status).toBe(200);
    const refused = await rename(9);
    expectError(refused, 429, "RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expectError(
      await browser.fetch("/api/keys", write("POST", { name: "more" })).then(asResponse),
      429,
      "RATE_LIMITED",
    );
    const [alertsKey] = await server.sql<{ id: string }[]>`select key_id as id from alerts where id = ${made.body.id}`;
    expectError(
      await browser.fetch(`/api/keys/${alertsKey.id}/rotate`, write("POST")).then(asResponse),
      429,
      "RATE_LIMITED",
    );

    expect((await browser.fetch(`/api/alerts/${made.body.id}`, write("DELETE"))).status).toBe(204);
    expect((await browser.fetch(`/api/keys/${alertsKey.id}`, write("DELETE"))).status).toBe(204);
  });

  it("show on the keys page which keys a downgrade disabled, and why", async () => {
    const { browser, accountId } = await signedIn(server);
    await changePlan(server.db, accountId, "pro", new Date());
    for (const name of ["oldest", "older", "newest"]) await createKey(server.db, accountId, name);
    await changePlan(server.db, accountId, "free", new Date());
    const page = (await (await browser.fetch("/keys")).text()).replaceAll("<!-- -->", "");
    expect(page).toContain(
      "Your Free plan allows 2 live keys, so your 1 newest key is disabled: the API refuses it (403), " +
        "but nothing is deleted.",
    );
    expect(page).toMatch(/newest <span[^>]*title="Beyond the Free plan&#x27;s 2 live keys[^"]*"[^>]*>disabled<\/span>/);
    expect(page).not.toMatch(/olde(r|st) <span[^>]*>disabled/);
  });
});

describe("request bodies", () => {
  const big = JSON.stringify({ name: "x".repeat(70 * 1024) });
  /** The same body as a stream of chunks, without a Content-Length. */
  const chunked = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < big.length; i += 8 * 1024)
          controller.enqueue(new TextEncoder().encode(big.slice(i, i + 8 * 1024)));
        controller.close();
      },
    });

  it("over 64 KiB are 413 with the error body, on the dashboard's routes, Auth.js's and /v1", async () => {
    const { browser } = await signedIn(server);
    expectError(
      await browser.fetch("/api/keys", { ...write("POST"), body: big }).then(asResponse),
      413,
      "PAYLOAD_TOO_LARGE",
      "body",
    );
    const streamed = await browser
      .fetch("/api/keys", { ...write("POST"), body: chunked(), duplex: "half" } as Parameters<typeof browser.fetch>[1])
      .then(asResponse);
    expectError(streamed, 413, "PAYLOAD_TOO_LARGE", "body");
    const auth = await fetch(`${server.baseUrl}/api/auth/signin/resend`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `email=${"x".repeat(70 * 1024)}`,
    }).then(asResponse);
    expect(auth.status).toBe(413);
    expect(auth.body.error.code).toBe("PAYLOAD_TOO_LARGE");
    const { key } = await apiKey("pro");
    expectError(
      await v1("/v1/alerts", key, { method: "POST", headers: { "content-type": "application/json" }, body: big }),
      413,
      "PAYLOAD_TOO_LARGE",
      "body",
    );
  });
});

describe("names with control characters", () => {
  const conditions = { min_liquidity_usd: 1000 };
  it.each([
    ["a NUL", "bot\u0000"],
    ["a newline", "bot\nnet"],
    ["a right-to-left override", "bot\u202etxt.exe"],
  ])("with %s are 400 naming the field, for keys and alerts", async (_what, name) => {
    const { browser } = await signedIn(server);
    expectError(
      await browser.fetch("/api/keys", write("POST", { name })).then(asResponse),
      400,
      "INVALID_PARAMS",
      "name",
    );
    const { key } = await apiKey("pro");
    const json = { "content-type": "application/json" };
    expectError(
      await v1("/v1/alerts", key, { method: "POST", headers: json, body: JSON.stringify({ name, conditions }) }),
      400,
      "INVALID_PARAMS",
      "name",
    );
    const made = await v1("/v1/alerts", key, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ name: "fine", conditions }),
    });
    expect(made.status).toBe(201);
    expectError(
      await v1(`/v1/alerts/${made.body.id}`, key, { method: "PATCH", headers: json, body: JSON.stringify({ name }) }),
      400,
      "INVALID_PARAMS",
      "name",
    );
  });
});

describe("webhook targets", () => {
  const conditions = { min_liquidity_usd: 1000 };
  const hook = (url: string) => ({ name: "hook", conditions, notification_channel: "webhook", webhook_url: url });
  const post = (key: string, body: unknown) =>
    v1("/v1/alerts", key, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("meet the plan's gate before any lookup: a Free key learns nothing about a host", async () => {
    const { key } = await apiKey("free");
    // The name does not resolve: a lookup would answer 400 "does not resolve".
    expectError(await post(key, hook("https://no-such-host.invalid/hook")), 403, "FORBIDDEN", "notification_channel");
    const pro = await apiKey("pro");
    expectError(await post(pro.key, hook("https://no-such-host.invalid/hook")), 400, "INVALID_PARAMS", "webhook_url");
  });

  it.each([
    ["NAT64 of loopback", "https://[64:ff9b::7f00:1]/hook"],
    ["local-use NAT64", "https://[64:ff9b:1::a00:1]/hook"],
    ["6to4 of a private address", "https://[2002:c0a8:101::1]/hook"],
    ["IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/hook"],
    ["IPv4-compatible", "https://[::8.8.8.8]/hook"],
    ["cloud metadata", "https://169.254.169.254/latest"],
  ])("refuse %s", async (_what, url) => {
    const { key } = await apiKey("pro");
    const res = await post(key, hook(url));
    expectError(res, 400, "INVALID_PARAMS", "webhook_url");
    expect(res.body.error.message).toMatch(/public addresses only/);
  });

  it("are https, without credentials, in words: nothing of a user name or password is stored or shown", async () => {
    const { browser, accountId } = await signedIn(server);
    await changePlan(server.db, accountId, "pro", new Date());
    const { key } = await createKey(server.db, accountId, "hooks");
    const plain = await post(key, hook("http://8.8.8.8/hook"));
    expectError(plain, 400, "INVALID_PARAMS", "webhook_url");
    expect(plain.body.error.message).toBe(
      "The webhook URL must start with https:// " +
        "(plain http:// is accepted only on the embedded defaults of npm start).",
    );
    const withCredentials = await post(key, hook("https://user:s3cret@8.8.8.8/hook"));
    expectError(withCredentials, 400, "INVALID_PARAMS", "webhook_url");
    expect(withCredentials.body.error.message).toMatch(/^The webhook URL must not carry a user name or password/);
    expect(JSON.stringify(withCredentials.body)).not.toContain("s3cret");
    expect((await post(key, hook("https://no-such-host.invalid/hook"))).body.error.message).toBe(
      "The webhook URL's host does not resolve.",
    );
    // An alert saved before credentials were refused keeps them for delivery, but never shows them.
    const made = await post(key, hook("https://8.8.8.8/hook"));
    await server.sql`update alerts set webhook_url = 'https://user:s3cret@8.8.8.8/hook' where id = ${made.body.id}`;
    expect((await v1(`/v1/alerts/${made.body.id}`, key)).body.webhook_url).toBe("https://8.8.8.8/hook");
    const json = { "content-type": "application/json" };
    const renamed = await v1(`/v1/alerts/${made.body.id}`, key, {
      method: "PATCH",
      headers: json,
      body: JSON.stringify({ name: "renamed" }),
    });
    for (const shown of [
      (await v1("/v1/alerts?status=all", key)).body,
      renamed.body,
      await browser.fetch("/alerts").then((r) => r.text()),
    ]) {
      expect(JSON.stringify(shown)).not.toContain("s3cret");
    }
  });

  it("meet the gate on every change after a downgrade, on the API and the dashboard alike", async () => {
    const { key, accountId } = await apiKey("pro");
    // A global address needs no lookup; nothing is delivered to it here.
    const made = await post(key, hook("https://8.8.8.8/hook"));
    expect(made.status).toBe(201);
    await changePlan(server.db, accountId, "free", new Date());
    const patch = (body: unknown) =>
      v1(`/v1/alerts/${made.body.id}`, key, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expectError(await patch({ webhook_url: "https://8.8.4.4/hook" }), 403, "FORBIDDEN");
    expect((await patch({ name: "renamed" })).status).toBe(200);

    const { browser, accountId: dashboardAccount } = await signedIn(server);
    const own = await createKey(server.db, dashboardAccount, "alerts");
    const viaDashboard = await browser
      .fetch("/api/alerts", write("POST", { key_id: own.id, alert: hook("https://no-such-host.invalid/hook") }))
      .then(asResponse);
    expectError(viaDashboard, 403, "FORBIDDEN", "notification_channel");
  });
});

describe("email sign-in without an email service, off the embedded defaults", () => {
  it("is refused rather than writing the link to the log, and the start says so", async () => {
    const email = "nobody-reads-this@example.com";
    const res = await fetch(`${server.baseUrl}/api/auth/csrf`);
    const { csrfToken } = (await res.json()) as { csrfToken: string };
    const csrfCookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const sent = await fetch(`${server.baseUrl}/api/auth/signin/resend`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
      body: new URLSearchParams({ email, csrfToken }).toString(),
    });
    expect(sent.headers.get("location")).toMatch(/error=/);
    expect(server.output()).not.toContain("callback/resend");
    expect(server.output()).toContain("Email sign-in is off");
    expect(await fetch(`${server.baseUrl}/signin`).then((r) => r.text())).toContain("Email sign-in is not configured");
  });
});

describe("the request deadline", () => {
  /** Holds an exclusive lock on `table` (as a long migration would) until release(). */
  async function lock(table: string) {
    const reserved = await server.sql.reserve();
    await reserved`begin`;
    await reserved.unsafe(`lock table ${table} in access exclusive mode`);
    return async () => {
      await reserved`rollback`;
      reserved.release();
    };
  }
  /** The app's statements waiting on a lock right now. */
  const waiting = async () =>
    (
      await server.sql`select count(*)::int as n from pg_stat_activity
                        where datname = current_database() and application_name = 'onchain-intel'
                          and wait_event_type = 'Lock'`
    )[0].n as number;
  let since = Date.parse("2030-01-01T00:00:00Z");
  /** A request the response cache cannot answer. */
  const events = (key: string) => v1(`/v1/events?since=${new Date((since += 1000)).toISOString()}`, key);

  it("cancels the query: a 500 leaves nothing running, and the connection serves the next request", async () => {
    const { key } = await apiKey("api_tier");
    expect((await events(key)).status).toBe(200);
    const release = await lock("events");
    try {
      const res = await events(key);
      expectError(res, 500, "SERVER_ERROR");
      expect(res.body.error.message).toMatch(/timed out/);
      expect(await waiting()).toBe(0);
    } finally {
      await release();
    }
    expect((await events(key)).status).toBe(200);
  });

  it("leaves authentication a connection of its own: 401 and 429 answer while slow queries hold the pool", async () => {
    const { key } = await apiKey("api_tier");
    const limited = await apiKey("free");
    await server.sql`insert into usage_daily (key_id, day, requests)
      select ${limited.accountId}, (now() at time zone 'utc')::date + d, 100 from generate_series(0, 1) d`;
    const release = await lock("events");
    let stuck: Promise<unknown>[] = [];
    try {
      // The pool's two connections, both stuck behind the lock.
      let settled = 0;
      stuck = [events(key), events(key)].map((p) => p.finally(() => settled++));
      while ((await waiting()) < 2) await new Promise((r) => setTimeout(r, 20));
      expectError(await v1("/v1/events", `ocd_live_${"x".repeat(32)}`), 401, "UNAUTHORIZED");
      expectError(await v1("/v1/events", limited.key), 429, "RATE_LIMITED");
      expect(settled).toBe(0);
    } finally {
      await release();
    }
    await Promise.all(stuck);
  });
});
