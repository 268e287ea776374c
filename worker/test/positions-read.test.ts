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
 * moves on and reorganises under it, every page holds what the database holds. Both value the
 * positions by one rule at one data version's prices: the profile's PnL and portfolio are the
 * positions list's, also right after a price move that the wallet took no part in.
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
    expect(portfolio.map((p) => [p.token_address, p.quantity])).toEqual(
      (page?.data ?? []).map((p) => [p.token_address, p.quantity]),
    );
  }
  return out;
}

/** The indexed block and the data version: what a response's X-Indexed-Block and its cache key say. */
async function indexedAt() {
  const [s] = await sql<{ block: string; version: string }[]>`
    select indexed_block::text as block, data_version::text as version from sync_state`;
  return s;
}

describe("positions read across trades and reorgs (dev chain)", { timeout: 240_000 }, () => {
  beforeAll(async () => {
    market = await DevchainMarket.start(5);
    database = await createTestDatabase();
    sql = connect(database.url, { max: 4 });
    db = createDb(sql);
    await market.simulate(25, 4);
    // No full refresh after the first: after a range, only the figures it touched are refreshed, as
    // between two full refreshes in production (a wallet that did not trade is not refreshed).
    const fullRefreshIntervalMs = Number.POSITIVE_INFINITY;
    ix = await Indexer.create({ sql, rpc: market.rpc, profile: market.profile, fullRefreshIntervalMs });
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
    const resized = Object.keys(first).filter(
      (w) => tokensOf(first[w]) === tokensOf(traded[w]) && JSON.stringify(first[w]) !== JSON.stringify(traded[w]),
    );
    expect(resized.length).toBeGreaterThan(0);
    expect(await served({ ...first, ...traded })).toEqual({
      ...Object.fromEntries(Object.keys(first).map((w) => [w, {}])),
      ...traded,
    });
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
    expect(await served({ ...doomed, ...canonical })).toEqual({
      ...Object.fromEntries(Object.keys(doomed).map((w) => [w, {}])),
      ...canonical,
    });
  });

  it("gives a profile its positions' PnL and portfolio at one block, after a price move not its own", async () => {
    // A wallet holding a launched token, and another that buys it: the price moves, the holder's books do not.
    const [held] = await sql<{ wallet: string; token: string }[]>`
      select p.wallet, p.token_address as token from wallet_positions p join wallets w on w.address = p.wallet
        join token_metrics m on m.address = p.token_address
       where p.quantity > 0 and m.price_usd > 0 and p.token_address = any(${market.tokens.map((t) => t.token)})
       order by p.quantity desc, p.wallet limit 1`;
    expect(held).toBeDefined();
    const heldValue = async () => {
      const page = await listPositions(db, held.wallet, { status: "open", page: 1, limit: 200 });
      return page!.data.find((p) => p.token_address === held.token)!.value_usd;
    };
    const before = await heldValue();
    const buyer = market.accounts[8];
    expect(buyer).not.toBe(held.wallet);
    await market.buy(buyer, held.token, 20n * 10n ** 18n);
    await syncToHead();

    const at = await indexedAt();
    const profile = (await getWalletProfile(db, held.wallet))!;
    const positions = (await listPositions(db, held.wallet, { status: "all", page: 1, limit: 200 }))!;
    expect(await indexedAt()).toEqual(at);
    // The move is real: the holding is worth more now.
    expect(positions.data.find((p) => p.token_address === held.token)!.value_usd).toBeGreaterThan(before + 1);
    expect(positions.total).toBe(positions.data.length);
    // pnl_estimate_usd is the sum of the positions' pnl_usd (each rounded to the cent on its own).
    const sum = positions.data.reduce((a, p) => a + p.pnl_usd, 0);
    expect(Math.abs(profile.pnl_estimate_usd - sum)).toBeLessThanOrEqual(0.005 * positions.data.length + 0.005);
    // The portfolio is the open positions, in the same order, at the same values.
    const open = positions.data.filter((p) => p.status === "open");
    const holdings = open.map((p) => [p.token_address, p.quantity, p.value_usd]);
    expect(profile.portfolio.map((h) => [h.token_address, h.quantity, h.value_usd])).toEqual(holdings);
  });
});
