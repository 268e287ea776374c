import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { type ApiEvent, listEventsJson, type RemovedEvent } from "@/lib/queries/events";
import { Indexer } from "@/worker/indexer/indexer";
import { createTestDatabase, type TestDatabase } from "./db";
import { DevchainMarket } from "./devchain-market";

/**
 * The event stream across reorgs, on the dev chain with the real indexer: a consumer that pages
 * GET /v1/events?after=…&order=asc&include_removed=true (the query behind it) the way
 * docs/event-stream.md says, reading while the chain reorganises under it, ends with exactly the
 * canonical events; ids are never reused; `confirmed` events are never removed.
 */
type Item = ApiEvent | RemovedEvent;
const PAGE = 25;

let market: DevchainMarket;
const dbs: TestDatabase[] = [];
let sql: Sql;
let db: Db;
let ix: Indexer;

async function syncToHead(indexer: Indexer) {
  for (let i = 0; i < 200; i++) if ((await indexer.cycle()).step === "idle") return;
  throw new Error("did not catch up");
}

/** The consumer of docs/event-stream.md: a copy keyed by id, and a cursor at the last confirmed item. */
class Consumer {
  readonly copy = new Map<string, ApiEvent>();
  /** Everything ever received as a live event, by id: an id must never name two events. */
  readonly everSeen = new Map<string, string>();
  readonly removed = new Set<string>();
  /** Ids received as confirmed: none of them may ever be removed. */
  readonly confirmed = new Set<string>();
  cursor = 0n;
  polls = 0;

  constructor(private readonly db: Db) {}

  /** Pages from the cursor to the end of the stream, or `maxPages` pages of it. */
  async poll(maxPages = Number.POSITIVE_INFINITY) {
    this.polls++;
    let after = this.cursor;
    for (let page = 0; page < maxPages; page++) {
      const { json } = await listEventsJson(this.db, {
        afterId: Number(after),
        order: "asc",
        includeRemoved: true,
        page: 1,
        limit: PAGE,
      });
      const items = JSON.parse(json) as Item[];
      for (const item of items) {
        expect(BigInt(item.id)).toBeGreaterThan(after);
        after = BigInt(item.id);
        if ("removed" in item) {
          this.copy.delete(item.id);
          this.removed.add(item.id);
          continue;
        }
        const identity =
          `${item.block_number}:${item.tx_hash}:${item.type}:` + `${item.token_address}:${item.wallet_address}`;
        const before = this.everSeen.get(item.id);
        if (before !== undefined && before !== identity)
          throw new Error(`id ${item.id} was reused: ${before} then ${identity}`);
        this.everSeen.set(item.id, identity);
        this.copy.set(item.id, item);
        if (item.confirmed) {
          this.confirmed.add(item.id);
          this.cursor = BigInt(item.id);
        }
      }
      if (items.length < PAGE) return;
    }
  }
}

/** Every live event as the API serialises it, in id order. */
async function liveEvents(): Promise<ApiEvent[]> {
  const out: ApiEvent[] = [];
  let after = 0;
  for (;;) {
    const { json } = await listEventsJson(db, { afterId: after, order: "asc", page: 1, limit: 200 });
    const page = JSON.parse(json) as ApiEvent[];
    out.push(...page);
    if (page.length < 200) return out;
    after = Number(page.at(-1)!.id);
  }
}

/** An event by what happened on chain, without its id (ids differ once a block was rolled back). */
const onChain = (e: {
  block_number: number;
  log_index?: number;
  tx_hash: string;
  type: string;
  token_address: string;
  wallet_address: string;
}) => `${e.block_number}:${e.tx_hash}:${e.type}:${e.token_address}:${e.wallet_address}`;

describe("event stream across reorgs (dev chain)", { timeout: 240_000 }, () => {
  beforeAll(async () => {
    market = await DevchainMarket.start(11);
    const main = await createTestDatabase();
    dbs.push(main);
    sql = connect(main.url, { max: 4 });
    db = createDb(sql);
    await market.simulate(30, 3);
    ix = await Indexer.create({ sql, rpc: market.rpc, profile: market.profile, fullRefreshIntervalMs: 0 });
  }, 240_000);
  afterAll(async () => {
    await sql?.end();
    await market?.stop();
    for (const d of dbs) await d.drop();
  });

  it("a consumer paging with after= across reorgs of 1 to 20 blocks ends with exactly the canonical ones", async () => {
    const consumer = new Consumer(db);
    await syncToHead(ix);
    await consumer.poll(2);
    // Reorgs of 1 to 20 blocks, the new branch longer or shorter; the consumer reads part of the
    // stream before, during (it reads the doomed branch) and after each one.
    for (const [depth, branch, pages] of [
      [1, 2, 1],
      [3, 1, 3],
      [7, 9, 2],
      [12, 4, 1],
      [20, 22, 4],
      [2, 2, 1],
      [15, 16, 2],
    ]) {
      await market.simulate(3, 3);
      await syncToHead(ix);
      await consumer.poll(pages);
      const revert = await market.snapshot();
      await market.simulate(depth, 3);
      await syncToHead(ix);
      await consumer.poll(pages);
      await revert();
      await market.simulate(branch, 3);
      await syncToHead(ix);
      if (depth % 2 === 1) await consumer.poll(1);
    }
    await consumer.poll();

    const live = await liveEvents();
    // Exactly the live events, field for field (confirmed and the wallet's class now may have
    // changed since a read: not compared).
    const strip = ({ confirmed: _, wallet_classification: __, ...e }: ApiEvent) => e;
    expect([...consumer.copy.values()].map(strip).sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)))).toEqual(
      live.map(strip),
    );
    // Reorgs happened and the consumer learned of them, and nothing it read as confirmed went away.
    expect(consumer.removed.size).toBeGreaterThan(20);
    for (const id of consumer.confirmed) expect(consumer.removed.has(id)).toBe(false);
    // A removed id is never live again.
    for (const e of live) expect(consumer.removed.has(e.id)).toBe(false);

    // The live events are the chain's canonical ones: a fresh index of the same chain has the
    // same events (where ids of blocks never rolled back agree too).
    const fresh = await createTestDatabase();
    dbs.push(fresh);
    const freshSql = connect(fresh.url, { max: 4 });
    try {
      const again = await Indexer.create({
        sql: freshSql,
        rpc: market.rpc,
        profile: market.profile,
        fullRefreshIntervalMs: 0,
      });
      await syncToHead(again);
      const canonical = (await listEventsJson(createDb(freshSql), { order: "asc", page: 1, limit: 200 })).total;
      expect(live.length).toBe(canonical);
      const rows = async (s: Sql) =>
        (
          await s<
            { block_number: string; tx_hash: string; type: string; token_address: string; wallet_address: string }[]
          >`
          select block_number, tx_hash, type, token_address, wallet_address from events
           order by block_number, log_index`
        ).map((r) => onChain({ ...r, block_number: Number(r.block_number) }));
      expect(await rows(sql)).toEqual(await rows(freshSql));
      expect(live.map(onChain)).toEqual(await rows(freshSql));
    } finally {
      await freshSql.end();
    }
  });

  it("an event read while unconfirmed reads as confirmed once the head passes its finality depth", async () => {
    // The serialised events are kept per id (lib/queries/event-bodies.ts); confirmed is not.
    const page = async (q: { afterId?: number; order: "asc" | "desc" }) =>
      JSON.parse((await listEventsJson(db, { ...q, page: 1, limit: 30 })).json) as ApiEvent[];
    await syncToHead(ix);
    const newest = await page({ order: "desc" });
    expect(newest.length).toBe(30);
    expect(newest.every((e) => !e.confirmed)).toBe(true);
    await market.simulate(market.profile.finalityDepth + 1, 1);
    await syncToHead(ix);
    const again = await page({ afterId: Number(newest.at(-1)!.id) - 1, order: "asc" });
    expect(again.map((e) => e.id)).toEqual(newest.map((e) => e.id).reverse());
    expect(again.every((e) => e.confirmed)).toBe(true);
  });

  it("ids stay in their block's range, monotonic in chain order, and the block counts agree", async () => {
    const [row] = await sql<{ outside: number; disordered: number }[]>`
      select count(*) filter (where id / 100000 <> block_number)::int as outside,
             count(*) filter (where prev_block > block_number
               or (prev_block = block_number and prev_log > log_index))::int as disordered
        from (select id, block_number, log_index, lag(block_number) over (order by id) as prev_block,
                     lag(log_index) over (order by id) as prev_log from events) e`;
    expect(row).toEqual({ outside: 0, disordered: 0 });
    const [t] = await sql<{ n: number; reused: number; outside: number }[]>`
      select count(*)::int as n, count(e.id)::int as reused,
             count(*) filter (where t.id / 100000 <> t.block_number)::int as outside
        from event_tombstones t left join events e on e.id = t.id`;
    expect(t.n).toBeGreaterThan(20);
    expect(t.reused).toBe(0);
    expect(t.outside).toBe(0);
    // The running per-block counts (db/functions/event-counts.sql) still equal the events.
    const [c] = await sql<{ wrong: number }[]>`
      select count(*)::int as wrong from (
        select scope, block_number, count, cum from event_cumulative_counts
        except
        select scope, block_number, n, sum(n) over (partition by scope order by block_number) from (
          select s.scope, e.block_number, count(*) as n from events e
            cross join lateral (values ('all'), ('type:' || e.type)) s(scope) group by 1, 2) x) d`;
    expect(c.wrong).toBe(0);
  });

  it("a page with include_removed counts live events and tombstones, and filters both", async () => {
    const [{ tombstones, events }] = await sql<{ tombstones: number; events: number }[]>`
      select (select count(*)::int from event_tombstones) as tombstones, (select count(*)::int from events) as events`;
    const all = await listEventsJson(db, { order: "asc", includeRemoved: true, page: 1, limit: 200 });
    expect(all.total).toBe(tombstones + events);
    const [{ token }] = await sql<
      { token: string }[]
    >`select token_address as token from event_tombstones group by 1 order by count(*) desc limit 1`;
    const byToken = await listEventsJson(db, { token, order: "desc", includeRemoved: true, page: 1, limit: 200 });
    const items = JSON.parse(byToken.json) as Item[];
    expect(items.every((i) => i.token_address === token)).toBe(true);
    expect(items.some((i) => "removed" in i)).toBe(true);
    expect(items.map((i) => BigInt(i.id))).toEqual(items.map((i) => BigInt(i.id)).sort((a, b) => (a < b ? 1 : -1)));
    const [{ wallet }] = await sql<
      { wallet: string }[]
    >`select wallet_address as wallet from event_tombstones group by 1 order by count(*) desc limit 1`;
    const byWallet = await listEventsJson(db, { wallet, order: "asc", includeRemoved: true, page: 1, limit: 200 });
    const [{ n }] = await sql<{ n: number }[]>`
      select ((select count(*) from events where wallet_address = ${wallet} or to_address = ${wallet})
            + (select count(*) from event_tombstones
                where wallet_address = ${wallet} or to_address = ${wallet}))::int as n`;
    expect(byWallet.total).toBe(n);
  });
});
