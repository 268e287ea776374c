import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { INVARIANTS } from "@/scripts/fixtures/invariants";
import { baseProfile } from "../profiles/base";
import { createTestDatabase, type TestDatabase } from "../test/db";
import { linkFunders, upsertWalletActivity } from "./wallets";

// One database for the file: the two describes write different wallets.
let db: TestDatabase;
let sql: Sql;
beforeAll(async () => {
  db = await createTestDatabase("idx_wallets");
  sql = connect(db.url, { max: 1 });
});
afterAll(async () => {
  await sql?.end();
  await db?.drop();
});

/**
 * linkFunders sets a wallet's funder from wallet_funding and its cluster: the funder once it paid
 * two wallets or more. It reads a funder's other wallets only when their cluster can change (the
 * funder had fewer than two besides the wallets given), so each step below checks every wallet,
 * not only those given.
 */
describe("linkFunders", () => {
  const fund = (pairs: [wallet: string, funder: string][]) =>
    sql`insert into wallet_funding ${sql(
      pairs.map(([wallet, funder], i) => ({ wallet, funder, value: "1", block_number: i + 1, tx_hash: `0x${wallet}` })),
    )}`;
  const seen = (wallets: string[]) =>
    sql`insert into wallets ${sql(wallets.map((address) => ({ address, first_seen: new Date(0), last_seen: new Date(0) })))}
        on conflict do nothing`;
  const clusters = async () =>
    Object.fromEntries(
      (await sql<{ address: string; cluster_id: string | null }[]>`select address, cluster_id from wallets`).map(
        (r) => [r.address, r.cluster_id],
      ),
    );
  const link = (wallets: string[]) => sql.begin((tx) => linkFunders(tx, wallets));

  it("keeps every wallet's cluster as wallets join and leave their funders", async () => {
    const hub = Array.from({ length: 8 }, (_, i) => `h${i}`);
    // table-driven: what a range wrote, the wallets it links, then every wallet's cluster.
    const steps: [string, () => Promise<unknown>, string[], Record<string, string | null>][] = [
      ["a funder's first wallet", () => fund([["w1", "F"]]), ["w1"], { w1: null }],
      [
        "its second, in a later range, makes the first a cluster too",
        () => fund([["w2", "F"]]),
        ["w2"],
        {
          w1: "F",
          w2: "F",
        },
      ],
      ["a third", () => fund([["w3", "F"]]), ["w3"], { w1: "F", w2: "F", w3: "F" }],
      [
        "two wallets of a new funder in one range",
        () =>
          fund([
            ["g1", "G"],
            ["g2", "G"],
          ]),
        ["g1", "g2"],
        {
          g1: "G",
          g2: "G",
        },
      ],
      ["a hub's wallets", () => fund(hub.map((h) => [h, "H"])), hub, Object.fromEntries(hub.map((h) => [h, "H"]))],
      [
        "the hub's ninth, in a range with a new funder's first",
        () =>
          fund([
            ["h8", "H"],
            ["n1", "N"],
          ]),
        ["h8", "n1"],
        { h8: "H", n1: null, h0: "H" },
      ],
      [
        "a reorg takes two of F's three: the one left is no cluster",
        () => sql`delete from wallet_funding where wallet in ('w2', 'w3')`,
        ["w2", "w3"],
        { w1: null, w2: null, w3: null },
      ],
      [
        "a reorg takes one of the hub's: the rest stay",
        () => sql`delete from wallet_funding where wallet = 'h0'`,
        ["h0"],
        { h0: null, h1: "H", h7: "H" },
      ],
      [
        "a wallet moves from G to F: both funders are left with one",
        () => sql`update wallet_funding set funder = 'F' where wallet = 'g2'`,
        ["g2"],
        { w1: "F", g2: "F", g1: null },
      ],
    ];
    for (const [what, write, wallets, expected] of steps) {
      await write();
      await seen(wallets);
      await link(wallets);
      expect(await clusters(), what).toMatchObject(expected);
      const [{ count }] = await sql.unsafe<{ count: string }[]>(
        INVARIANTS["a wallet's cluster is its funder once the funder paid two wallets or more"],
      );
      expect(Number(count), what).toBe(0);
    }
  });
});

/**
 * A range's wallet activity returns the wallets whose rows it created: deriveRange links only
 * those (and the wallets the range paid), so a wallet it merely updated, or one left out
 * (a pool, a token, a burn address), must not be returned, nor a created one missed.
 */
describe("upsertWalletActivity", () => {
  const write = (block: number, rows: [wallet: string, to: string | null][]) =>
    sql`insert into events ${sql(
      rows.map(([wallet, to], i) => ({
        id: block * 100 + i,
        type: "swap",
        wallet_address: wallet,
        to_address: to,
        token_address: "0xtoken",
        block_number: block,
        log_index: i,
        tx_hash: `0x${block}${i}`,
        timestamp: new Date(block * 1000),
      })),
    )}`;
  const range = (fromBlock: number) =>
    sql.begin(async (tx) => (await upsertWalletActivity(tx, baseProfile, { fromBlock })).sort());

  it("returns the wallets a range created, not those it updated", async () => {
    await sql`insert into tokens ${sql({ address: "0xtoken", symbol: "T", name: "T", total_supply: "0", launchpad: "0xpad", created_block: 1, created_at: new Date(1000) })}`;
    await write(1, [
      ["a", null],
      ["b", "c"],
      ["a", "0xtoken"],
    ]);
    expect(await range(1)).toEqual(["a", "b", "c"]);
    await write(2, [
      ["b", "d"],
      ["e", null],
      ["0x0000000000000000000000000000000000000000", "a"],
    ]);
    expect(await range(2)).toEqual(["d", "e"]);
    const [{ trades }] = await sql<{ trades: number }[]>`select trade_count as trades from wallets where address = 'b'`;
    expect(trades).toBe(2);
  });
});
