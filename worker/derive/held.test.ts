import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { createTestDatabase, type TestDatabase } from "../test/db";
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
    const staged = (amount: (x: bigint) => bigint) => ({
      balances: rows.map(([token, holder, x], i) => ({ token, holder, amount: amount(x), block: i + 1 })),
      counts: new Map([[a, 4]]),
    });
    // A rolled-back range leaves nothing held; a committed one is held.
    held.balances.stage(staged((x) => x + 100n));
    held.drop();
    expect(held.balances.amount(a, "0x01")).toBeNull();
    expect(held.balances.count(a)).toBeUndefined();
    held.balances.stage(staged((x) => x));
    held.keep();
    expect(held.balances.count(a)).toBe(4);
    const books = new Books();
    Object.assign(books.position("0xw", a), { quantity: 3n, boughtUsd: 2.5 });
    held.positions.stage(books);
    held.keep();
    await sql.begin((tx) => held.write(tx));

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
    const [position] = await sql`select quantity::text, bought_usd from wallet_positions`;
    expect(position).toEqual({ quantity: "3", bought_usd: 2.5 });
    await expect(Held.onEmpty(sql)).rejects.toThrow(/has some/);
  });
});
