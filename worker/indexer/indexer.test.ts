import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { createTestDatabase, type TestDatabase } from "@/worker/test/db";
import { addr, FakeChain, ZERO } from "@/worker/test/fake-chain";
import { fakeProfile as profile } from "@/worker/test/fake-market";
import { fetchRange } from "./fetch";
import { Indexer } from "./indexer";
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
