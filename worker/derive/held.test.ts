import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { ChainState } from "../indexer/state";
import { createTestDatabase, type TestDatabase } from "../test/db";
import { fakeProfile } from "../test/fake-market";
import { StoredBalances } from "./balances";
import { Held } from "./held";
import { Books } from "./positions";

let db: TestDatabase;
let sql: Sql;
beforeAll(async () => {
  db = await createTestDatabase("idx_held");
  sql = connect(db.url, { max: 1 });
});
afterAll(async () => {
  await sql?.end();
  await db?.drop();
});

/**
 * A bulk load's held balances and positions stand in for the stored rows until its backfill ends:
 * each read of them gives what the same read of the written rows gives.
 */
describe("what a bulk load holds", () => {
  const [a, b] = ["0xaa", "0xbb"];
  // Token a's holders: ties at the cut of three (two of 5), a zero balance, holders out of address order.
  const rows: [token: string, holder: string, amount: bigint][] = [
    [a, "0x05", 5n],
    [a, "0x01", 9n],
    [a, "0x04", 5n],
    [a, "0x03", 0n],
    [a, "0x02", 7n],
    [a, "0x06", 5n],
    [b, "0x01", 1n],
  ];

  it("reads each balance and each token's largest holders as the written rows give them", async () => {
    const held = await Held.onEmpty(sql);
    const [t1, t2, t3] = [1_000, 3_000, 5_000];
    const staged = (amount: (x: bigint) => bigint, counts: [string, number, number][]) => ({
      balances: rows.map(([token, holder, x], i) => ({ token, holder, amount: amount(x), block: i + 1 })),
      counts: counts.map(([token, at, count]) => ({ token, at, count })),
    });
    // A rolled-back range leaves nothing held; a committed one is held.
    held.balances.stage(staged((x) => x + 100n, [[a, t1, 9]]));
    held.drop();
    expect(held.balances.amount(a, "0x01")).toBeNull();
    expect(held.balances.count(a)).toBeUndefined();
    held.balances.stage(
      staged(
        (x) => x,
        [
          [a, t1, 3],
          [b, t1, 1],
          [a, t2, 4],
        ],
      ),
    );
    held.keep();
    expect(held.balances.count(a)).toBe(4);
    // The next range's first block shares its time with the last one's: its count replaces that one.
    held.balances.stage({
      balances: [],
      counts: [
        { token: a, at: t2, count: 5 },
        { token: a, at: t3, count: 6 },
      ],
    });
    held.keep();
    expect(held.balances.count(a)).toBe(6);
    const books = new Books();
    Object.assign(books.position("0xw", a), { quantity: 3n, boughtUsd: 2.5 });
    held.positions.stage(books);
    held.keep();
    await sql.begin((tx) => held.write(tx, fakeProfile));

    const fromHeld = new StoredBalances(held.balances);
    const fromRows = new StoredBalances();
    const pairs = [...rows.map(([t, h]) => [t, h] as [string, string]), [b, "0x09"] as [string, string]];
    await fromHeld.load(sql, pairs);
    await fromRows.load(sql, pairs);
    for (const [t, h] of pairs) expect(fromHeld.get(t, h)).toBe(fromRows.get(t, h));
    for (const n of [1, 3, 4, 10]) {
      const stored = await fromRows.largest(sql, [a, b, "0xcc"], n);
      expect(await fromHeld.largest(sql, [a, b, "0xcc"], n)).toEqual(stored);
    }
    expect((await fromRows.largest(sql, [a], 3)).map((r) => r.holder)).toEqual(["0x01", "0x02", "0x04"]);
    const history = await sql`select token_address as token, extract(epoch from at)::int as at, holder_count as count
      from holder_count_history order by 1, 2`;
    expect(history).toEqual([
      { token: a, at: t1, count: 3 },
      { token: a, at: t2, count: 5 },
      { token: a, at: t3, count: 6 },
      { token: b, at: t1, count: 1 },
    ]);
    const [position] = await sql`select quantity::text, bought_usd from wallet_positions`;
    expect(position).toEqual({ quantity: "3", bought_usd: 2.5 });
    await expect(Held.onEmpty(sql)).rejects.toThrow(/has some/);
  });

  it("writes each pool's last reserves once, and puts them back into a state reloaded before", async () => {
    const [v2, v3] = ["0xp2", "0xp3"];
    for (const [address, protocol] of [
      [v2, "uniswap-v2"],
      [v3, "uniswap-v3"],
    ])
      await sql`insert into pools (address, factory, dex, protocol, token0, token1, created_block)
                values (${address}, '0xf', 'test', ${protocol}, ${a}, ${b}, 1)`;
    const row = (address: string, n: bigint, block: number, v3Pool: boolean) => ({
      address,
      reserve0: n,
      reserve1: 2n * n,
      reserveBlock: block,
      sqrtPriceX96: v3Pool ? 3n * n : null,
      tick: v3Pool ? Number(n) : null,
      liquidity: v3Pool ? 4n * n : null,
    });
    const held = new Held();
    held.reserves.stage([row(v2, 10n, 5, false), row(v3, 20n, 5, true)]);
    held.keep();
    // A later range moves one pool again; a rolled-back one moves nothing.
    held.reserves.stage([row(v3, 30n, 9, true)]);
    held.keep();
    held.reserves.stage([row(v2, 99n, 12, false)]);
    held.drop();

    const state = new ChainState(fakeProfile);
    for (const [address, protocol] of [
      [v2, "uniswap-v2"],
      [v3, "uniswap-v3"],
    ] as const)
      state.addPool({
        address,
        protocol,
        token0: a,
        token1: b,
        reserve0: 0n,
        reserve1: 0n,
        sqrtPriceX96: 0n,
        tick: 0,
        liquidity: 0n,
        createdBlock: 1,
      });
    held.reserves.restore(state);
    const { reserve0, reserve1, sqrtPriceX96, tick, liquidity } = state.pools.get(v3)!;
    expect({ reserve0, reserve1, sqrtPriceX96, tick, liquidity }).toEqual({
      reserve0: 30n,
      reserve1: 60n,
      sqrtPriceX96: 90n,
      tick: 30,
      liquidity: 120n,
    });
    expect(state.pools.get(v2)).toMatchObject({ reserve0: 10n, reserve1: 20n, sqrtPriceX96: 0n, tick: 0 });

    await sql.begin((tx) => held.reserves.write(tx));
    expect(
      await sql`select address, reserve0::text, reserve1::text, reserve_block::int, sqrt_price_x96::text, tick,
                       liquidity::text from pools order by address`,
    ).toEqual([
      {
        address: v2,
        reserve0: "10",
        reserve1: "20",
        reserve_block: 5,
        sqrt_price_x96: null,
        tick: null,
        liquidity: null,
      },
      {
        address: v3,
        reserve0: "30",
        reserve1: "60",
        reserve_block: 9,
        sqrt_price_x96: "90",
        tick: 30,
        liquidity: "120",
      },
    ]);
  });
});
