import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import type { LiveMessage } from "@/lib/api/stream/live";
import { type AppServer, startAppServer } from "@/tests/setup/server";
import { SseClient } from "@/tests/setup/sse-client";
import { Indexer } from "@/worker/indexer/indexer";
import { createTestDatabase, type TestDatabase } from "@/worker/test/db";
import { DevchainMarket } from "@/worker/test/devchain-market";

/**
 * The dashboard's live feed (GET /api/live) on the dev chain with the real indexer (in this
 * process, so the test decides when a block is indexed) and a production server: a block's
 * notification becomes one message naming its tokens and wallets, sent once the shared views
 * answer with the block; connections are capped per client address and per process.
 */
let market: DevchainMarket;
let database: TestDatabase;
let sql: Sql;
let ix: Indexer;
let server: AppServer;
const PER_CLIENT = 2;
const PER_PROCESS = 3;

async function syncToHead(): Promise<number> {
  for (let i = 0; i < 200; i++) if ((await ix.cycle()).step === "idle") return ix.checkpoint.number;
  throw new Error("did not catch up");
}

/** A browser at `address` (the server trusts loopback's X-Forwarded-For, as behind a proxy). */
const open = (address: string) =>
  SseClient.open(`${server.baseUrl}/api/live`, { key: "", headers: { "X-Forwarded-For": address } });

const moved = (m: { event: string; data: string }) => m.event === "moved" && (JSON.parse(m.data) as LiveMessage);

describe("dashboard live feed (dev chain)", { timeout: 600_000 }, () => {
  beforeAll(async () => {
    market = await DevchainMarket.start(31);
    database = await createTestDatabase("live_test");
    sql = connect(database.url, { max: 4 });
    await market.simulate(6, 3);
    ix = await Indexer.create({ sql, rpc: market.rpc, profile: market.profile, fullRefreshIntervalMs: 60_000 });
    await syncToHead();
    server = await startAppServer({
      DATABASE_URL: database.url,
      TRUSTED_PROXIES: "loopback",
      LIVE_MAX_PER_CLIENT: String(PER_CLIENT),
      LIVE_MAX_CONNECTIONS: String(PER_PROCESS),
      LIVE_PING_MS: "300",
    });
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await sql?.end();
    await market?.stop();
    await database?.drop();
  });

  it("tells a block's tokens and wallets once the shared views answer with it", async () => {
    const feed = await open("198.51.100.1");
    expect(feed.status).toBe(200);
    expect(feed.res.headers["content-type"]).toMatch(/^text\/event-stream/);
    const hello = JSON.parse((await feed.next((m) => m.event === "hello"))!.data);
    expect(hello.indexed_block).toBe(ix.checkpoint.number);

    const { token } = market.tokens[0];
    const trader = market.accounts[3];
    await market.buy(trader, token, 10n ** 17n);
    const block = await syncToHead();
    const m = await feed.next((x) => {
      const message = moved(x);
      return message !== false && message.indexed_block === block && message.tokens !== null;
    });
    const message = JSON.parse(m!.data) as LiveMessage;
    expect(message.tokens).toContain(token);
    expect(message.wallets).toContain(trader);
    expect(message.version).toBeGreaterThan(hello.version);

    // A page refetching on the message reads the block: the shared view is not one version behind.
    const res = await fetch(`${server.baseUrl}/api/events?token_address=${token}&type=swap`);
    const trades = (await res.json()) as { data: { block_number: number; wallet_address: string }[] };
    expect(trades.data[0]).toMatchObject({ block_number: block, wallet_address: trader });
    await feed.close();
  });

  it("caps connections per client address and per process, and pings idle ones", async () => {
    const a1 = await open("198.51.100.7");
    const a2 = await open("198.51.100.7");
    const a3 = await open("198.51.100.7");
    expect([a1.status, a2.status, a3.status]).toEqual([200, 200, 429]);
    expect((await a3.json()).error).toMatchObject({ code: "RATE_LIMITED" });
    expect(a3.res.headers["retry-after"]).toBe("2");

    const b1 = await open("203.0.113.9");
    const c1 = await open("192.0.2.44");
    expect([b1.status, c1.status]).toEqual([200, 429]);
    expect((await c1.json()).error.message).toMatch(/holds all the live connections/);

    // A connection that goes frees its place.
    await a2.close();
    await expect
      .poll(async () => {
        const c = await open("192.0.2.44");
        if (c.status === 200) await c.close();
        return c.status;
      })
      .toBe(200);

    // Idle connections are pinged (LIVE_PING_MS), so proxies keep them and pages know the feed is there.
    expect(await a1.next((m) => m.event === "ping")).not.toBeNull();
    await Promise.all([a1.close(), b1.close()]);
  });
});
