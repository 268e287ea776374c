import { sql } from "drizzle-orm";
import {
  type ClientOptions,
  type Event,
  OnchainIntel,
  OnchainIntelError,
  type RetryEvent,
  type StreamItem,
} from "onchain-intel";
import { beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "@/app/v1/document";
import { alert, alertDetail, alertList, createdAlert } from "@/lib/api/schemas/alerts";
import { eventList, walletEventList } from "@/lib/api/schemas/events";
import { holderList, ohlcvList, poolList } from "@/lib/api/schemas/market";
import { tokenScore, walletScore } from "@/lib/api/schemas/scores";
import { searchResults } from "@/lib/api/schemas/search";
import { tokenSecurity } from "@/lib/api/schemas/security";
import { status } from "@/lib/api/schemas/status";
import { tokenList, tokenProfile } from "@/lib/api/schemas/tokens";
import { launchList, positionList, walletProfile } from "@/lib/api/schemas/wallets";
import { baseUrl, expectShape, newKey, sharedKey, testDb } from "@/tests/api/helpers";
import { TcpProxy } from "@/tests/setup/tcp-proxy";
import { StandIn } from "./stand-in";

/** Waits between retries and polls without the clock: the tests assert what is waited, not how long it takes. */
const noWait = async () => {};

const client = async (options: Partial<ClientOptions> = {}) =>
  new OnchainIntel({ apiKey: await sharedKey(), baseUrl: `${baseUrl()}/v1`, sleep: noWait, ...options });

/** Every request a client sends, as "METHOD /path" with the path's parameters as in the OpenAPI document. */
function recorder() {
  const templates = Object.entries(openApiDocument("http://x/v1").paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item as object).map((method) => ({
      key: `${method.toUpperCase()} ${path}`,
      pattern: new RegExp(`^/v1${path.replace(/\{\w+\}/g, "[^/]+")}$`),
      method: method.toUpperCase(),
    })),
  );
  const called = new Set<string>();
  const fetch = async (request: Request) => {
    const path = new URL(request.url).pathname;
    const match = templates.find((t) => t.method === request.method && t.pattern.test(path));
    if (match) called.add(match.key);
    return globalThis.fetch(request);
  };
  return { fetch, called, all: templates.map((t) => t.key) };
}

let token: string;
let wallet: string;

beforeAll(async () => {
  const intel = await client();
  token = (await intel.tokens.list({ sort: "volume", limit: 1 })).data[0].address;
  const [w] = (await testDb().execute<{ wallet_address: string }>(
    sql`select wallet_address from events where type = 'swap' group by 1 order by count(*) desc limit 1`,
  )) as unknown as { wallet_address: string }[];
  wallet = w.wallet_address;
});

describe("the SDK against the real server", () => {
  it("calls every endpoint of the OpenAPI document, and each answer is what the API's schema says", async () => {
    const rec = recorder();
    const intel = await client({ fetch: rec.fetch });
    expectShape(
      tokenList,
      await intel.tokens.list({ min_liquidity_usd: 1000, exclude_flags: ["wash_trading"], limit: 5 }),
    );
    expectShape(tokenProfile, await intel.tokens.get(token));
    expectShape(ohlcvList, await intel.tokens.ohlcv(token, { interval: "5m", limit: 10 }));
    expectShape(holderList, await intel.tokens.holders(token, { limit: 5 }));
    expectShape(poolList, await intel.tokens.pools(token));
    expectShape(tokenSecurity, await intel.tokens.security(token));
    expectShape(searchResults, await intel.search({ q: token.slice(0, 6) }));
    expectShape(walletProfile, await intel.wallets.get(wallet));
    expectShape(positionList, await intel.wallets.positions(wallet, { status: "all" }));
    expectShape(launchList, await intel.wallets.launches(wallet, { limit: 5 }));
    expectShape(walletEventList, await intel.wallets.events(wallet, { type: "swap", limit: 5 }));
    const recent = expectShape(eventList, await intel.events.list({ token_address: token, limit: 5 }));
    // The stream, resumed after the token's second newest event, starts with its newest.
    for await (const e of intel.events.stream({ token_address: token, after: recent.data[1].id })) {
      expect(e.id).toBe(recent.data[0].id);
      break;
    }
    expectShape(tokenScore, await intel.scores.token(token));
    expectShape(walletScore, await intel.scores.wallet(wallet));
    const made = expectShape(
      createdAlert,
      await intel.alerts.create({ name: "sdk test", conditions: { min_liquidity_usd: 10_000 } }),
    );
    expectShape(alertList, await intel.alerts.list({ status: "all" }));
    expectShape(alertDetail, await intel.alerts.get(made.id));
    expect(expectShape(alert, await intel.alerts.pause(made.id)).status).toBe("paused");
    expect((await intel.alerts.resume(made.id)).status).toBe("active");
    expect((await intel.alerts.update(made.id, { name: "renamed" })).name).toBe("renamed");
    await intel.alerts.delete(made.id);
    expectShape(status, await intel.status());
    expect([...rec.called].sort()).toEqual([...rec.all].sort());
  });

  it("throws the API's errors as typed objects with code, param, status and request id", async () => {
    const intel = await client();
    const failure = (p: PromiseLike<unknown>) =>
      Promise.resolve(p).then(
        () => expect.unreachable("no error"),
        (e: unknown) => e as OnchainIntelError,
      );
    const missing = await failure(intel.tokens.get(`0x${"0".repeat(40)}`));
    expect(missing).toBeInstanceOf(OnchainIntelError);
    expect(missing).toMatchObject({ status: 404, code: "NOT_FOUND", param: undefined });
    expect(missing.requestId).toMatch(/^req_/);
    expect(await failure(intel.tokens.list({ limit: 500 }))).toMatchObject({
      status: 400,
      code: "INVALID_PARAMS",
      param: "limit",
    });
    const anonymous = new OnchainIntel({ apiKey: "ocd_live_notakey", baseUrl: `${baseUrl()}/v1` });
    expect(await failure(anonymous.tokens.list())).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
  });

  it("waits out a 429's Retry-After and then gets its answer (a Free key, the real limiter)", async () => {
    const free = await newKey("free");
    const refusals: number[] = [];
    const retries: RetryEvent[] = [];
    const intel = new OnchainIntel({
      apiKey: free.key,
      baseUrl: `${baseUrl()}/v1`,
      maxRetries: 1,
      fetch: async (request) => {
        const response = await globalThis.fetch(request);
        if (response.status === 429) refusals.push(Number(response.headers.get("retry-after")));
        return response;
      },
      onRetry: (e) => retries.push(e),
      // The wait "passes": the minute window of the key's account (its meter) is emptied, as the minute passing would.
      sleep: async () => {
        await testDb().execute(sql`delete from rate_limit_windows where key_id = ${free.accountId}`);
      },
    });
    for (let i = 0; i < 10; i++) await intel.tokens.list({ limit: 1 });
    expect(refusals).toEqual([]);
    const answered = await intel.tokens.list({ limit: 1 });
    expect(answered.data).toHaveLength(1);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toBeGreaterThanOrEqual(1);
    expect(retries).toEqual([
      expect.objectContaining({ reason: "rate_limited", status: 429, waitMs: refusals[0] * 1000, attempt: 1 }),
    ]);
  });

  it("pages through a whole list without a duplicate or a gap, by page number and by after=", async () => {
    const intel = await client();
    const pages = [];
    for await (const page of intel.tokens.list({ sort: "liquidity", limit: 7 }).pages()) pages.push(page);
    const addresses = pages.flatMap((p) => p.data.map((t) => t.address));
    expect(pages.length).toBeGreaterThan(2);
    expect(new Set(addresses).size).toBe(addresses.length);
    expect(addresses).toHaveLength(pages[0].total);
    expect((await intel.tokens.list({ sort: "liquidity", limit: 7 }).toArray()).map((t) => t.address)).toEqual(
      addresses,
    );

    const requests: string[] = [];
    const counted = await client({ fetch: (r) => (requests.push(r.url), globalThis.fetch(r)) });
    const ids: string[] = [];
    for await (const e of counted.events.list({ token_address: token, order: "asc", limit: 50 })) ids.push(e.id);
    const total = (await intel.events.list({ token_address: token, limit: 1 })).total;
    expect(ids).toHaveLength(total);
    expect(ids.every((id, i) => i === 0 || BigInt(id) > BigInt(ids[i - 1]))).toBe(true);
    expect(requests.slice(1).every((u) => new URL(u).searchParams.has("after"))).toBe(true);
  });
});

/** The live events after `after`, oldest first, as GET /events lists them. */
async function eventsAfter(intel: OnchainIntel, after: string) {
  return (await intel.events.list({ order: "asc", after, limit: 200 }).toArray()) as Event[];
}

/** The id before the last `n` events: a stream started after it has exactly those n to catch up on. */
async function idBeforeLast(n: number) {
  const [row] = (await testDb().execute<{ id: string }>(
    sql`select e.id::text as id from events e order by e.id desc offset ${n} limit 1`,
  )) as unknown as {
    id: string;
  }[];
  return row.id;
}

async function take(stream: AsyncGenerator<StreamItem>, n: number) {
  const out: StreamItem[] = [];
  for await (const item of stream) {
    out.push(item);
    if (out.length === n) break;
  }
  return out;
}

describe("the event stream", () => {
  it("polls GET /events where there is no stream, and resumes after a lost connection: no gap, no repeat", async () => {
    let listed = 0;
    const noStream = await new StandIn(baseUrl(), async (req, res, url) => {
      if (url.pathname === "/v1/events/stream") {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end('{"error":{"code":"NOT_FOUND","message":"no","request_id":"r"}}');
        return true;
      }
      // The second page of events is cut off mid-request: the client must retry it.
      if (url.pathname === "/v1/events" && ++listed === 3) {
        req.socket.destroy();
        return true;
      }
      return false;
    }).start();
    try {
      const after = await idBeforeLast(450);
      const intel = await client({ baseUrl: `${noStream.baseUrl}/v1` });
      const expected = await eventsAfter(await client(), after);
      const fallbacks: number[] = [];
      const heads: number[] = [];
      listed = 0;
      const stream = intel.events.stream({
        after,
        onFallback: (s) => fallbacks.push(s),
        onHead: (h) => heads.push(h.indexed_block),
      });
      const got = await take(stream, expected.length);
      expect(expected).toHaveLength(450);
      expect(fallbacks).toEqual([404]);
      expect(listed).toBeGreaterThan(3);
      expect(got.map((e) => e.id)).toEqual(expected.map((e) => e.id));
      expect(got).toEqual(expected);
      const [s] = (await testDb().execute<{ indexed_block: string }>(
        sql`select indexed_block from sync_state`,
      )) as unknown as { indexed_block: string }[];
      expect(heads).toEqual([Number(s.indexed_block)]);
    } finally {
      await noStream.stop();
    }
  });

  it("follows Server-Sent Events, resuming after a disconnect from the last id (Last-Event-ID, after=)", async () => {
    const key = await sharedKey();
    const intel0 = await client();
    const connections: { lastEventId: string | undefined; after: string | null; authorization: string | undefined }[] =
      [];
    // A stand-in for GET /v1/events/stream (not on this branch): the real events after the resume
    // point, 120 per connection, then the server ends the stream; the second connection breaks
    // before it sends anything.
    const sse = await new StandIn(baseUrl(), async (req, res, url) => {
      if (url.pathname !== "/v1/events/stream") return false;
      const lastEventId = req.headers["last-event-id"] as string | undefined;
      connections.push({ lastEventId, after: url.searchParams.get("after"), authorization: req.headers.authorization });
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
      if (connections.length === 2) {
        res.flushHeaders();
        res.socket?.destroy();
        return true;
      }
      const page = await intel0.events.list({ order: "asc", after: lastEventId ?? "0", limit: 120 });
      const head = `event: head\ndata: {"indexed_block":${page.data.at(-1)?.block_number ?? 0}}\n\n`;
      const messages = page.data.map((e) => `id: ${e.id}\nevent: event\ndata: ${JSON.stringify(e)}\n\n`);
      res.end([": heartbeat\n\n", head, ...messages].join(""));
      return true;
    }).start();
    try {
      const after = await idBeforeLast(300);
      const expected = await eventsAfter(intel0, after);
      const heads: number[] = [];
      const intel = await client({ baseUrl: `${sse.baseUrl}/v1` });
      const got = await take(
        intel.events.stream({ after, onHead: (h) => heads.push(h.indexed_block) }),
        expected.length,
      );
      expect(expected).toHaveLength(300);
      expect(got).toEqual(expected);
      const authorization = `Bearer ${key}`;
      const resumedAt = (id: string) => ({ lastEventId: id, after: id, authorization });
      expect(connections).toEqual([after, expected[119].id, expected[119].id, expected[239].id].map(resumedAt));
      expect(heads).toHaveLength(3);
    } finally {
      await sse.stop();
    }
  });

  it("follows the server's own GET /v1/events/stream across a dropped connection, where it is served", async (ctx) => {
    const key = await sharedKey();
    const probe = await fetch(`${baseUrl()}/v1/events/stream?after=0`, { headers: { Authorization: `Bearer ${key}` } });
    await probe.body?.cancel();
    // The route comes with the live-stream work (another branch); the stand-in above covers the client until then.
    if (probe.status === 404) return ctx.skip();
    const proxy = new TcpProxy("127.0.0.1", Number(new URL(baseUrl()).port));
    await proxy.open();
    let reopened: Promise<void> | undefined;
    try {
      const intel = new OnchainIntel({
        apiKey: key,
        baseUrl: `http://127.0.0.1:${proxy.port}/v1`,
        sleep: async () => reopened,
      });
      const after = await idBeforeLast(300);
      const expected = await eventsAfter(await client(), after);
      const got: string[] = [];
      for await (const item of intel.events.stream({ after })) {
        if ("removed" in item) continue;
        got.push(item.id);
        // Every connection through the proxy is cut, mid-stream; it listens again before the client reconnects.
        if (got.length === 100) reopened = proxy.close().then(() => proxy.open());
        if (got.length === expected.length) break;
      }
      expect(got).toEqual(expected.map((e) => e.id));
    } finally {
      await proxy.close();
    }
  });
});
