import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { connect, type Sql } from "@/db/client";
import { createTestDatabase, type TestDatabase } from "@/worker/test/db";
import { addr, FakeChain, ZERO } from "@/worker/test/fake-chain";
import { fakeProfile as profile } from "@/worker/test/fake-market";
import { SlicedRefresh } from "../derive/sliced-refresh";
import { fetchRange } from "./fetch";
import { Indexer, type IndexerOptions } from "./indexer";
import { NewHeads } from "./new-heads";
import { Rpc } from "./rpc";

const E18 = 10n ** 18n;
const WETH = profile.weth;
const FACTORY = profile.factories[0].address;
const LAUNCHPAD = profile.launchpads[0].address;

let db: TestDatabase;
let sql: Sql;
const chain = new FakeChain();

/** A token launched through the launchpad into a WETH pair, and a buy of it by `trader`. */
function launchAndBuy(token: string, pair: string, trader: string) {
  const supply = 1_000_000n * E18;
  chain
    .tx(addr(0x501))
    .pairCreated(FACTORY, token, WETH, pair)
    .transfer(token, ZERO, pair, supply)
    .sync(pair, supply, 10n * E18)
    .launched(LAUNCHPAD, token, pair, addr(0x501), "Token", "TKN", supply);
  chain.mine();
  chain
    .tx(trader, null, E18)
    .transfer(token, pair, trader, 1_000n * E18)
    .sync(pair, supply - 1_000n * E18, 11n * E18)
    .swap(pair, 0n, E18, 1_000n * E18, 0n, trader, trader);
  chain.mine();
}

beforeAll(async () => {
  db = await createTestDatabase();
  sql = connect(db.url, { max: 2 });
  await chain.listen();
  // Blocks 1-7: a token that then emits a malformed log (quarantined, so the commit reloads the state).
  launchAndBuy(addr(0x1001), addr(0x2001), addr(0x901));
  chain.tx(addr(0x901)).malformedTransfer(addr(0x1001), addr(0x901), addr(0x902));
  while (chain.blocks.length <= 7) chain.mine();
  // Blocks 8-14: a token launched and bought.
  launchAndBuy(addr(0x1002), addr(0x2002), addr(0x903));
  while (chain.blocks.length <= 14) chain.mine();
});
afterAll(async () => {
  await sql?.end();
  await chain.close();
  await db?.drop();
});

describe("Indexer.commit", () => {
  it("indexes what a range fetched ahead discovered, after the range before it reloaded the state", async () => {
    const rpc = new Rpc({ url: chain.url, addressChunkSize: profile.addressChunkSize });
    const ix = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
    // As a backfill does: the next range is fetched (its discoveries learnt) while the current one is written.
    const first = await fetchRange(rpc, ix.state, profile, 1, 7, false);
    const second = await fetchRange(rpc, ix.state, profile, 8, 14, false);
    await ix.commit(first, false);
    expect((await sql<{ address: string }[]>`select address from quarantined_entities`).map((r) => r.address)).toEqual([
      addr(0x1001),
    ]);
    await ix.commit(second, false);
    const balances = await sql<{ holder: string; amount: string }[]>`
      select holder, amount::text from balances where token_address = ${addr(0x1002)} and amount <> 0 order by holder`;
    const onChain = [...chain.balances].filter(([k, v]) => k.startsWith(`${addr(0x1002)}:`) && v !== 0n);
    expect(balances).toEqual(
      onChain
        .map(([k, v]) => ({ holder: k.split(":")[1], amount: v.toString() }))
        .sort((a, b) => a.holder.localeCompare(b.holder)),
    );
    expect(balances).toContainEqual({ holder: addr(0x903), amount: (1_000n * E18).toString() });
    const events = await sql<
      { type: string; wallet: string }[]
    >`select type, wallet_address as wallet from events where token_address = ${addr(0x1002)}`;
    expect(events).toEqual([{ type: "swap", wallet: addr(0x903) }]);
  });
});

/** An indexer with its own RPC client and announcements (none yet), cycled up to the node's head. */
async function idleIndexer(opts: Partial<IndexerOptions>) {
  const rpc = new Rpc({ url: chain.url, addressChunkSize: profile.addressChunkSize });
  const heads = new NewHeads();
  const ix = await Indexer.create({ sql, rpc, profile, newHeads: heads, ...opts });
  while ((await ix.cycle()).step !== "idle");
  return { rpc, heads, ix };
}

describe("Indexer.untilNextPoll", () => {
  it("is due at once when a head was announced since the last head read, so a refresh begun then still gives way", async () => {
    const { heads, ix } = await idleIndexer({ fullRefreshIntervalMs: 0, pollIntervalMs: 600_000 });
    expect(ix.untilNextPoll()).toBeGreaterThan(0);
    // Heard while the cycle ran (between its head read and a refresh's watch), not by a waiting loop.
    announce(heads, null);
    expect(ix.untilNextPoll()).toBe(0);
    await ix.cycle();
    expect(ix.untilNextPoll(), "the head read after it").toBeGreaterThan(0);
    heads.close();
  });
});

/** What the node's WebSocket would announce: a block with this number (null: none that reads as one). */
const announce = (heads: NewHeads, number: number | null) =>
  (heads as unknown as { announce(n: number | null): void }).announce(number);

describe("Indexer's announced heads", () => {
  it("fetches up to an announced head without asking the node for its head", async () => {
    const { rpc, heads, ix } = await idleIndexer({ fullRefreshIntervalMs: 600_000 });
    const head = chain.mine();
    const asked = vi.spyOn(rpc, "blockNumber");
    announce(heads, head);
    expect(await ix.cycle()).toMatchObject({ step: "indexed", indexedBlock: head });
    expect(asked).not.toHaveBeenCalled();
    heads.close();
  });

  it("reads the node's head when an announced one is beyond the finality depth", async () => {
    const { rpc, heads, ix } = await idleIndexer({ fullRefreshIntervalMs: 600_000 });
    const served = chain.blocks.length - 1;
    const asked = vi.spyOn(rpc, "blockNumber");
    announce(heads, served + profile.finalityDepth + 1);
    expect(await ix.cycle()).toMatchObject({ step: "idle", head: served });
    expect(asked).toHaveBeenCalled();
    heads.close();
  });

  it("reads the head from the node from then on once an announced block is not served yet", async () => {
    const { rpc, heads, ix } = await idleIndexer({ fullRefreshIntervalMs: 600_000 });
    const served = chain.blocks.length - 1;
    // The WebSocket is ahead of the node's HTTP endpoint.
    announce(heads, served + 1);
    expect(await ix.cycle()).toMatchObject({ step: "retry", indexedBlock: served });
    expect(await ix.cycle()).toMatchObject({ step: "idle", head: served });
    const head = chain.mine();
    const asked = vi.spyOn(rpc, "blockNumber");
    announce(heads, head);
    expect(await ix.cycle()).toMatchObject({ step: "indexed", indexedBlock: head });
    expect(asked).toHaveBeenCalled();
    heads.close();
  });
});

describe("Indexer.refreshAll", () => {
  const dataVersion = async () =>
    Number((await sql<{ v: string }[]>`select data_version::text as v from sync_state`)[0].v);

  it("lets a new block in between slices of a full refresh that no longer gives way, finishing it after", async () => {
    const rpc = new Rpc({ url: chain.url, addressChunkSize: profile.addressChunkSize });
    const ix = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
    while ((await ix.cycle()).step !== "idle");
    chain.tx(addr(0x903)).transfer(addr(0x1002), addr(0x903), addr(0x904), E18);
    chain.mine();
    const head = chain.blocks.length - 1;
    const before = await dataVersion();
    // Overdue (the interval is 0): its slices (the pools, the tokens, the wallets) no longer give way inside.
    await ix.refreshAll(0);
    expect(await dataVersion(), "one slice committed").toBe(before + 1);
    expect((await ix.cycle()).indexedBlock).toBe(head);
    while ((await ix.cycle()).step !== "idle");
    const metrics = await sql<{ block: string }[]>`select distinct updated_block::text as block from token_metrics`;
    expect(metrics).toEqual([{ block: String(head) }]);
  });
});

describe("Indexer's score cadence (score-cadence.ts)", () => {
  afterEach(() => vi.useRealTimers());
  const token = addr(0x1002);
  /** When the token and its buyer were last scored, and the block the token's metrics are as of. */
  const figures = async () => {
    const [f] = await sql<{ scored: string; metrics: string; wallet: string }[]>`
      select s.updated_at::text as scored, m.updated_block::text as metrics,
             (select updated_at::text from wallet_scores where address = ${addr(0x903)}) as wallet
        from token_scores s join token_metrics m using (address) where address = ${token}`;
    return f;
  };
  let holders = 0;
  /** A block with a transfer of the token to a new holder (its metrics move: the holder count), indexed live. */
  const liveBlock = async (ix: Indexer) => {
    chain.tx(addr(0x903)).transfer(token, addr(0x903), addr(0x905 + holders++), 1n);
    chain.mine();
    while ((await ix.cycle()).step !== "idle");
    return String(chain.blocks.length - 1);
  };

  it.each([
    { busyScoringRows: 1, scoredEveryBlock: false },
    { busyScoringRows: 1_000_000, scoredEveryBlock: true },
  ])("busy from $busyScoringRows rows: scored on every block $scoredEveryBlock", async ({
    busyScoringRows,
    scoredEveryBlock,
  }) => {
    // Only Date is faked: the interval is judged by it, and the database's I/O keeps its timers.
    vi.useFakeTimers({ toFake: ["Date"] });
    const rpc = new Rpc({ url: chain.url, addressChunkSize: profile.addressChunkSize });
    // No full refresh comes due while the test runs: every score below is a live refresh's.
    const ix = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 3_600_000, busyScoringRows });
    await ix.refreshAll();
    const scored = (await figures()).scored;
    const block = await liveBlock(ix);
    const after = await figures();
    expect(after.metrics, "metrics follow every block").toBe(block);
    expect(after.scored !== scored, "scored again").toBe(scoredEveryBlock);
    // Once its interval has passed, the token's owed score is refreshed, with or without a new block.
    vi.setSystemTime(Date.now() + 10_001);
    while ((await ix.cycle()).step !== "idle");
    expect((await figures()).scored).not.toBe(scored);
  });

  it("leaves scores no block moved to the periodic full refresh that finds them old", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const rpc = new Rpc({ url: chain.url, addressChunkSize: profile.addressChunkSize });
    const ix = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 3_600_000 });
    // One that may not wait scores every token.
    await ix.refreshAll();
    const before = await figures();
    await ix.refreshAll(Date.now());
    expect(await figures(), "scored within their age").toEqual(before);
    vi.setSystemTime(Date.now() + 300_000);
    await ix.refreshAll(Date.now());
    const after = await figures();
    expect(after.scored).not.toBe(before.scored);
    expect(after.wallet).not.toBe(before.wallet);
  });
});

describe("Indexer's live refresh in slices (sliced-refresh.ts)", () => {
  const recipients = Array.from({ length: 5_001 }, (_, i) => addr(0x10000 + i));
  const dataVersion = async () =>
    Number((await sql<{ v: string }[]>`select data_version::text as v from sync_state`)[0].v);
  const scored = async () =>
    Number(
      (await sql<{ n: number }[]>`select count(*)::int as n from wallet_scores where address = any(${recipients})`)[0]
        .n,
    );

  it("refreshes what a block touched in slices, leaving what a new block came before to be refreshed after it", async () => {
    const rpc = new Rpc({ url: chain.url, addressChunkSize: profile.addressChunkSize });
    const ix = await Indexer.create({ sql, rpc, profile, fullRefreshIntervalMs: 0 });
    while ((await ix.cycle()).step !== "idle");
    // One block that touches more wallets than a large slice holds.
    const tx = chain.tx(addr(0x903));
    for (const to of recipients) tx.transfer(addr(0x1002), addr(0x903), to, 1n);
    chain.mine();
    // The head is read between two slices: once the first has committed, another block has come.
    const readHead = rpc.blockNumber.bind(rpc);
    let committedFrom = await dataVersion();
    rpc.blockNumber = async () => {
      if ((await dataVersion()) > committedFrom + 1) {
        committedFrom = Number.POSITIVE_INFINITY;
        chain.tx(addr(0x903)).transfer(addr(0x1002), addr(0x903), addr(0x904), 1n);
        chain.mine();
      }
      return readHead();
    };
    const first = await ix.cycle();
    expect(first.indexedBlock).toBe(chain.blocks.length - 2);
    expect(await scored(), "the wallets' slices wait for the new block").toBe(0);
    while ((await ix.cycle()).step !== "idle");
    expect(await scored()).toBe(recipients.length);
    const metrics = await sql<{ block: string }[]>`select distinct updated_block::text as block from token_metrics`;
    expect(metrics).toEqual([{ block: String(chain.blocks.length - 1) }]);
  });
});

describe("Indexer.cycle after a backfill", () => {
  it("writes the live blocks first and covers them with the refresh of everything, not one of their own", async () => {
    // A token touched only by the blocks within the finality depth (the live step's), and one not.
    launchAndBuy(addr(0x1003), addr(0x2003), addr(0x906));
    for (let i = 0; i <= profile.finalityDepth; i++) chain.mine();
    chain.tx(addr(0x906)).transfer(addr(0x1003), addr(0x906), addr(0x907), E18);
    const head = chain.mine();
    const fresh = await createTestDatabase();
    const freshSql = connect(fresh.url, { max: 2 });
    const touchedRefresh = vi.spyOn(SlicedRefresh, "of");
    try {
      const rpc = new Rpc({ url: chain.url, addressChunkSize: profile.addressChunkSize });
      const ix = await Indexer.create({ sql: freshSql, rpc, profile, fullRefreshIntervalMs: 3_600_000 });
      expect(await ix.cycle()).toMatchObject({ step: "indexed", indexedBlock: head });
      expect(await ix.cycle()).toMatchObject({ step: "idle" });
      expect(touchedRefresh).not.toHaveBeenCalled();
      const figures = await freshSql<{ block: string; scored: boolean }[]>`
        select distinct m.updated_block::text as block, s.address is not null as scored
          from token_metrics m left join token_scores s using (address)`;
      expect(figures, "every token's figures as of the head, scored").toEqual([{ block: String(head), scored: true }]);
    } finally {
      touchedRefresh.mockRestore();
      await freshSql.end();
      await fresh.drop();
    }
  });
});
