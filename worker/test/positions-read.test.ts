import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { toUnits } from "@/lib/queries/format";
import { listPositions } from "@/lib/queries/positions";
import { getWalletProfile } from "@/lib/queries/wallets";
import { Indexer } from "@/worker/indexer/indexer";
import { createTestDatabase, type TestDatabase } from "./db";
import { DevchainMarket } from "./devchain-market";

/**
 * The positions list and the wallet profile keep each wallet's open positions between reads while
 * they are unchanged (lib/queries/open-positions.ts): read through one handle while the chain
 * moves on and reorganises under it, every page holds what the database holds.
 */
let market: DevchainMarket;
let database: TestDatabase;
let sql: Sql;
let db: Db;
let ix: Indexer;

async function syncToHead() {
  for (let i = 0; i < 200; i++) if ((await ix.cycle()).step === "idle") return;
  throw new Error("did not catch up");
}

/** Every indexed wallet's open quantities (in units) by token, as stored. */
async function stored(): Promise<Record<string, Record<string, number>>> {
  const rows = await sql<{ wallet: string; token: string; quantity: string; decimals: number }[]>`
    select p.wallet, p.token_address as token, p.quantity::text as quantity, t.decimals
      from wallet_positions p join tokens t on t.address = p.token_address join wallets w on w.address = p.wallet
     where p.quantity > 0 order by p.wallet, p.token_address`;
  const out: Record<string, Record<string, number>> = {};
  for (const r of rows) (out[r.wallet] ??= {})[r.token] = toUnits(r.quantity, r.decimals);
  return out;
}

/** The same as the positions list serves them, for the wallets of `like`. */
async function served(like: Record<string, unknown>): Promise<Record<string, Record<string, number>>> {
  const out: Record<string, Record<string, number>> = {};
  for (const wallet of Object.keys(like)) {
    const page = await listPositions(db, wallet, { status: "open", page: 1, limit: 200 });
    // A wallet a reorg removed is not indexed any more (null): it holds nothing.
    out[wallet] = Object.fromEntries((page?.data ?? []).map((p) => [p.token_address, p.quantity]));
    // The wallet profile's portfolio is the same open positions, in the same order.
    const portfolio = (await getWalletProfile(db, wallet))?.portfolio ?? [];
    expect(portfolio.map((p) => [p.token_address, p.quantity])).toEqual((page?.data ?? []).map((p) => [p.token_address, p.quantity]));
  }
  return out;
}

describe("positions read across trades and reorgs (dev chain)", { timeout: 240_000 }, () => {
  beforeAll(async () => {
    market = await DevchainMarket.start(5);
    database = await createTestDatabase();
    sql = connect(database.url, { max: 4 });
    db = createDb(sql);
    await market.simulate(25, 4);
    ix = await Indexer.create({ sql, rpc: market.rpc, profile: market.profile, fullRefreshIntervalMs: 0 });
    await syncToHead();
  }, 240_000);
  afterAll(async () => {
    await sql?.end();
    await market?.stop();
    await database?.drop();
  });

  it("serves every wallet's open positions as stored after trades, and after a reorg", async () => {
    const first = await stored();
    expect(Object.keys(first).length).toBeGreaterThan(3);
    expect(await served(first)).toEqual(first);
    await market.simulate(6, 4);
    await syncToHead();
    const traded = await stored();
    // Some wallets hold the same open positions in other quantities (no position was opened or
    // closed), and what was read of them before is not served again.
    const tokensOf = (o: Record<string, number> = {}) => Object.keys(o).join();
    const resized = Object.keys(first).filter((w) => tokensOf(first[w]) === tokensOf(traded[w]) && JSON.stringify(first[w]) !== JSON.stringify(traded[w]));
    expect(resized.length).toBeGreaterThan(0);
    expect(await served({ ...first, ...traded })).toEqual({ ...Object.fromEntries(Object.keys(first).map((w) => [w, {}])), ...traded });
    // A branch that is read and rolled back, then a longer one in its place.
    const revert = await market.snapshot();
    await market.simulate(4, 4);
    await syncToHead();
    const doomed = await stored();
    expect(await served(doomed)).toEqual(doomed);
    await revert();
    await market.simulate(6, 4);
    await syncToHead();
    const canonical = await stored();
    expect(await served({ ...doomed, ...canonical })).toEqual({ ...Object.fromEntries(Object.keys(doomed).map((w) => [w, {}])), ...canonical });
  });
});
