import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { type ApiEvent, listEventsJson, type RemovedEvent } from "@/lib/queries/events";
import { type AppServer, startAppServer } from "@/tests/setup/server";
import { SseClient } from "@/tests/setup/sse-client";
import { Indexer } from "@/worker/indexer/indexer";
import { createTestDatabase, type TestDatabase } from "@/worker/test/db";
import { DevchainMarket } from "@/worker/test/devchain-market";

/**
 * GET /v1/events/stream live, on the dev chain with the real indexer (in this process, so the
 * test decides when blocks are indexed) and a production server: consumers of several filters
 * follow the stream while the chain reorganises under them, while they are away and while the
 * server restarts, resuming each time from the Last-Event-ID they kept. Each must receive every
 * event exactly once, a tombstone only of an event it holds and only once, and end with exactly
 * the live events of its filter.
 */
type Item = ApiEvent | RemovedEvent;
type Filter = { name: string; query: string; test: (e: Item) => boolean };

let market: DevchainMarket;
let database: TestDatabase;
let sql: Sql;
let db: Db;
let ix: Indexer;
let server: AppServer;
let key: string;

const serve = () => startAppServer({ DATABASE_URL: database.url, STREAM_HEARTBEAT_MS: "500" });

async function syncToHead(): Promise<number> {
  for (let i = 0; i < 200; i++) if ((await ix.cycle()).step === "idle") return ix.checkpoint.number;
  throw new Error("did not catch up");
}

/** A consumer as docs/event-stream.md describes one: a copy by id, and the last id it received. */
class Consumer {
  readonly copy = new Map<string, ApiEvent>();
  readonly received = new Set<string>();
  readonly removed = new Set<string>();
  readonly problems: string[] = [];
  readonly ends: string[] = [];
  private stream: SseClient | null = null;
  private lastEventId: string | undefined;

  constructor(readonly filter: Filter) {}

  /** Opens the stream from the start of history (after=0), or where it left off: EventSource's reconnect. */
  async connect() {
    this.stream = await SseClient.open(`${server.baseUrl}/v1/events/stream?after=0${this.filter.query}`, {
      key,
      lastEventId: this.lastEventId,
    });
    expect(this.stream.status).toBe(200);
  }

  /** Applies messages until the stream tells the head is `block`, or the stream ends. */
  async follow(block: number) {
    const stream = this.stream!;
    for (;;) {
      const m = await stream.next();
      this.lastEventId = stream.lastEventId;
      if (!m) return;
      if (m.event === "head") {
        if (JSON.parse(m.data).indexed_block === block) return;
      } else if (m.event === "end") this.ends.push(JSON.parse(m.data).reason);
      else if (m.event === "removed") {
        const t = JSON.parse(m.data) as RemovedEvent;
        if (this.removed.has(t.id)) this.problems.push(`tombstone ${t.id} twice`);
        if (!this.copy.has(t.id)) this.problems.push(`tombstone ${t.id} of an event not held`);
        if (m.id !== t.id) this.problems.push(`tombstone ${t.id} with id: ${m.id}`);
        this.removed.add(t.id);
        this.copy.delete(t.id);
      } else {
        const e = JSON.parse(m.data) as ApiEvent;
        if (this.received.has(e.id)) this.problems.push(`event ${e.id} twice`);
        if (!this.filter.test(e)) this.problems.push(`event ${e.id} outside the filter`);
        if (m.id !== e.id) this.problems.push(`event ${e.id} with id: ${m.id}`);
        this.received.add(e.id);
        this.copy.set(e.id, e);
      }
    }
  }

  async disconnect() {
    await this.stream?.close();
    this.lastEventId = this.stream?.lastEventId;
  }

  get heartbeats() {
    return this.stream?.comments ?? 0;
  }

  waitForHeartbeat() {
    const seen = this.heartbeats;
    return this.stream!.until(() => this.heartbeats > seen);
  }
}

/** The live events a filter selects, as GET /v1/events lists them. */
async function liveEvents(filter: Filter): Promise<ApiEvent[]> {
  const out: ApiEvent[] = [];
  for (let after = 0; ; ) {
    const { json } = await listEventsJson(db, { afterId: after, order: "asc", page: 1, limit: 200 });
    const page = JSON.parse(json) as ApiEvent[];
    out.push(...page.filter(filter.test));
    if (page.length < 200) return out;
    after = Number(page[page.length - 1].id);
  }
}

/** A reorg: `depth` blocks mined, then replaced by a branch of `branch` blocks. `index` runs between. */
async function reorg(depth: number, branch: number, index: () => Promise<unknown>) {
  const revert = await market.snapshot();
  await market.simulate(depth, 3);
  await index();
  await revert();
  await market.simulate(branch, 3);
}

describe("event stream live (dev chain)", { timeout: 600_000 }, () => {
  beforeAll(async () => {
    market = await DevchainMarket.start(23);
    database = await createTestDatabase("stream_test");
    sql = connect(database.url, { max: 4 });
    db = createDb(sql);
    await market.simulate(20, 3);
    ix = await Indexer.create({ sql, rpc: market.rpc, profile: market.profile, fullRefreshIntervalMs: 60_000 });
    await syncToHead();
    key = (await createKey(db, await ensureAccount(db, null, "api_tier"), "stream test")).key;
    server = await serve();
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await sql?.end();
    await market?.stop();
    await database?.drop();
  });

  it("delivers every event once, and tombstones of what it sent, across reorgs, reconnects and a restart", async () => {
    const token = market.tokens[0].token;
    const wallet = market.accounts[2];
    const consumers = [
      { name: "all", query: "", test: () => true },
      { name: "swaps", query: "&type=swap", test: (e: Item) => e.type === "swap" },
      { name: "token", query: `&token_address=${token}`, test: (e: Item) => e.token_address === token },
      {
        name: "wallet",
        query: `&wallet_address=${wallet}`,
        test: (e: Item) => e.wallet_address === wallet || e.to_address === wallet,
      },
    ].map((f) => new Consumer(f));
    const follow = async (block: number) => {
      for (const c of consumers) await c.follow(block);
    };

    // History from the start, then live blocks.
    for (const c of consumers) await c.connect();
    await follow(ix.checkpoint.number);
    await market.simulate(3, 3);
    await follow(await syncToHead());

    // Reorgs while connected: the tombstones and the new branch arrive live.
    await reorg(4, 6, async () => follow(await syncToHead()));
    await follow(await syncToHead());
    await reorg(5, 2, async () => follow(await syncToHead()));
    await follow(await syncToHead());

    // Away while a reorg replaces the blocks each one last read: it resumes from a removed event.
    let revert = await market.snapshot();
    await market.simulate(3, 3);
    await follow(await syncToHead());
    for (const c of consumers) await c.disconnect();
    await revert();
    await market.simulate(5, 3);
    await syncToHead();
    for (const c of consumers) await c.connect();
    await follow(ix.checkpoint.number);

    // The server restarts: its streams end with a last message, and while it is down a reorg
    // replaces what they last read.
    revert = await market.snapshot();
    await market.simulate(2, 3);
    await follow(await syncToHead());
    await server.stop();
    for (const c of consumers) await c.follow(-1);
    expect(consumers.map((c) => c.ends)).toEqual(consumers.map(() => ["server_shutdown"]));
    await revert();
    await market.simulate(4, 3);
    await syncToHead();
    server = await serve();
    for (const c of consumers) await c.connect();
    await follow(ix.checkpoint.number);

    // One more reorg live on the new server, then a quiet stream keeps beating.
    await reorg(3, 3, async () => follow(await syncToHead()));
    await follow(await syncToHead());
    for (const c of consumers) expect(await c.waitForHeartbeat()).toBe(true);

    for (const c of consumers) {
      expect({ consumer: c.filter.name, problems: c.problems }).toEqual({ consumer: c.filter.name, problems: [] });
      // confirmed and the wallet's class now may have changed since an event was sent.
      const strip = ({ confirmed: _, wallet_classification: __, ...e }: ApiEvent) => e;
      const held = [...c.copy.values()].map(strip).sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
      expect(held).toEqual((await liveEvents(c.filter)).map(strip));
    }
    // The reorgs reached every consumer but the narrowest, live and on resuming.
    expect(consumers[0].removed.size).toBeGreaterThan(10);
    expect(consumers[0].copy.size).toBeGreaterThan(100);
    const [{ rollbacks }] = await sql<{ rollbacks: number }[]>`select count(*)::int as rollbacks from reorg_rollbacks`;
    expect(rollbacks).toBeGreaterThanOrEqual(5);
  });
});
