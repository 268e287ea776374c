import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { BURN_ADDRESSES } from "@/lib/tokens/holders";
import { INVARIANTS } from "@/scripts/fixtures/invariants";
import type { RangeData } from "../indexer/range";
import { ChainState } from "../indexer/state";
import type { RangeRows } from "../indexer/transform";
import { baseProfile } from "../profiles/base";
import { knownContracts } from "../profiles/contracts";
import { createTestDatabase, type TestDatabase } from "../test/db";
import { quoteTokenFundings } from "./funding";
import { HeldWallets, linkFunders, upsertWalletActivity } from "./wallets";

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

/** Swaps at `block` by each wallet, to each receiver. */
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

/**
 * A range's wallet activity returns the wallets whose rows it created: deriveRange links only
 * those (and the wallets the range paid), so a wallet it merely updated, or one left out
 * (a pool, a token, a burn address), must not be returned, nor a created one missed.
 */
describe("upsertWalletActivity", () => {
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

/**
 * A bulk load holds its ranges' wallets (HeldWallets): it answers which wallets a range's activity
 * would have created, and writes their rows and the funders' links once, as the ranges' own
 * upserts and links would have left them.
 */
describe("HeldWallets", () => {
  it("writes at the end the rows the ranges' upserts and links leave", async () => {
    const state = new ChainState(baseProfile);
    const [token, pool, quarantined] = ["0xheldtoken", "0xheldpool", "0xquarantined"];
    const contract = knownContracts(baseProfile)[0].address;
    state.addToken({ address: token, decimals: 18, createdBlock: 1 });
    // A token quarantined after its row was written: no longer in the state, still not a wallet.
    state.quarantined.add(quarantined);
    const empty = { reserve0: 0n, reserve1: 0n, sqrtPriceX96: 0n, tick: 0, liquidity: 0n, createdBlock: 1 };
    state.addPool({ ...empty, address: pool, protocol: "uniswap-v2", token0: token, token1: baseProfile.weth });
    await sql`insert into tokens ${sql(
      [token, quarantined].map((address) => ({
        address,
        symbol: "H",
        name: "H",
        total_supply: "0",
        launchpad: "0xpad",
        created_block: 1,
        created_at: new Date(1000),
      })),
    )}`;
    await sql`insert into pools (address, factory, dex, protocol, token0, token1, created_block)
              values (${pool}, '0xf', 'test', 'uniswap-v2', ${token}, '0xquote', 1)`;
    await sql`insert into wallet_funding ${sql(
      ["x2", "x4", "x5"].map((wallet, i) => ({
        wallet,
        funder: "HF",
        value: "1",
        block_number: 10 + i,
        tx_hash: `0xf${i}`,
      })),
    )}`;
    // What the activity upsert leaves out (a pool, a token, a quarantined one, a burn address) is
    // never seen; x1 acts in both ranges; x5 is paid but never acts.
    const ranges: [block: number, actors: [wallet: string, to: string | null][], paid: string[]][] = [
      [
        10,
        [
          ["x1", pool],
          ["x2", null],
          [BURN_ADDRESSES[1], "x3"],
          [quarantined, token],
          [contract, "x2"],
        ],
        ["x2"],
      ],
      [11, [["x4", "x1"]], ["x4", "x5"]],
    ];
    const addresses = ["x1", "x2", "x3", "x4", "x5", pool, token, quarantined, contract, BURN_ADDRESSES[1]];
    const stored = () => sql`select address, first_seen, last_seen, trade_count, is_contract, funder, cluster_id
      from wallets where address = any(${addresses}) order by address`;

    // The ranges as the indexer writes them one by one.
    for (const [block, actors, paid] of ranges) {
      await write(block, actors);
      await sql.begin(async (tx) => {
        const created = await upsertWalletActivity(tx, baseProfile, { fromBlock: block });
        await linkFunders(tx, [...new Set([...created, ...paid])]);
      });
    }
    const byRanges = await stored();
    expect(byRanges.map((r) => [r.address, r.trade_count, r.is_contract, r.funder, r.cluster_id])).toEqual([
      [contract, 1, 1, null, null],
      ["x1", 1, 0, null, null],
      ["x2", 1, 0, "HF", "HF"],
      ["x3", 0, 0, null, null],
      ["x4", 1, 0, "HF", "HF"],
    ]);
    await sql`delete from wallets where address = any(${addresses})`;

    const held = new HeldWallets();
    const stage = ([block, actors, paid]: (typeof ranges)[number]) =>
      held.stage(
        state,
        actors.map(([wallet, to]) => ({ type: "swap", wallet, to, timestamp: block })),
        paid,
      );
    // A rolled-back range is not seen; committed ones are.
    stage(ranges[0]);
    held.drop();
    expect(held.seen("x1")).toBe(false);
    for (const range of ranges) stage(range), held.keep();
    expect(addresses.filter((a) => held.seen(a))).toEqual(["x1", "x2", "x3", "x4", contract]);

    await sql.begin((tx) => held.write(tx, baseProfile));
    expect(await stored()).toEqual(byRanges);
  });

  it("keeps a seen wallet from a quote-token funding edge, as its row would", async () => {
    const state = new ChainState(baseProfile);
    await sql`insert into first_quote_payments ${sql({ recipient: "y1", sender: "S", asset: "0xquote", value: "1", block_number: 5, log_index: 0, tx_hash: "0xpay" })}`;
    // y1 acts at block 20: its first payment (block 5) funds it unless a range before saw it.
    const range = { fundings: [] } as unknown as RangeData;
    const rows = { events: [{ wallet: "y1", to: null, block: 20 }] } as unknown as RangeRows;
    const funders = async (held: HeldWallets | null) =>
      (await sql.begin((tx) => quoteTokenFundings(tx, state, range, rows, held))).map((f) => [f.wallet, f.funder]);
    const held = new HeldWallets();
    expect(await funders(null)).toEqual([["y1", "S"]]);
    expect(await funders(held)).toEqual([["y1", "S"]]);
    held.stage(state, [{ type: "swap", wallet: "y1", to: null, timestamp: 10 }], []);
    held.keep();
    expect(await funders(held)).toEqual([]);
  });
});
