import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import type { Tx } from "../indexer/sql";
import { createTestDatabase, type TestDatabase } from "../test/db";
import type { RefreshScope } from ".";
import { TOKEN_CHUNK } from "./scores";
import { halves, SlicedRefresh, slices } from "./sliced-refresh";

describe("slices", () => {
  const rows = new Map([
    ["busy", 9_000],
    ["a", 10],
    ["b", 20],
    ["c", 5_000],
    ["d", 0],
  ]);
  const rowsOf = (t: string) => rows.get(t)!;

  it.each([
    {
      name: "cut by rows: a busy token alone, then until the rows reach the bound",
      most: 200,
      bound: 5_000,
      want: [["busy"], ["a", "b", "c"], ["d"]],
    },
    {
      name: "no row bound: by count alone",
      most: 2,
      bound: Number.POSITIVE_INFINITY,
      want: [["busy", "a"], ["b", "c"], ["d"]],
    },
    { name: "whichever comes first", most: 2, bound: 5_000, want: [["busy"], ["a", "b"], ["c"], ["d"]] },
    {
      name: "each item counts one row besides its own",
      most: 200,
      bound: 2,
      want: [["busy"], ["a"], ["b"], ["c"], ["d"]],
    },
  ])("$name", ({ most, bound, want }) => {
    expect(slices([...rows.keys()], rowsOf, most, bound)).toEqual(want);
  });

  it("makes no slice of no items", () => {
    expect(slices([], rowsOf, 10, 10)).toEqual([]);
  });
});

describe("halves (a slice that gave way to a block, tried again)", () => {
  const none = { tokens: [], pools: [], wallets: [] };
  it.each([
    {
      name: "tokens, the unscored among them kept beside each half",
      slice: { ...none, tokens: ["a", "b", "c"], unscored: ["b"] },
      want: [
        { ...none, tokens: ["a", "b"], unscored: ["b"] },
        { ...none, tokens: ["c"], unscored: ["b"] },
      ],
    },
    {
      name: "wallets",
      slice: { ...none, wallets: ["w1", "w2"], walletsUnscored: true },
      want: [
        { ...none, wallets: ["w1"], walletsUnscored: true },
        { ...none, wallets: ["w2"], walletsUnscored: true },
      ],
    },
    {
      name: "tokens to score again",
      slice: { ...none, rescore: ["a", "b", "c", "d"] },
      want: [
        { ...none, rescore: ["a", "b"] },
        { ...none, rescore: ["c", "d"] },
      ],
    },
    {
      name: "the pools",
      slice: { ...none, pools: ["p1", "p2"] },
      want: [
        { ...none, pools: ["p1"] },
        { ...none, pools: ["p2"] },
      ],
    },
    { name: "one token stays whole", slice: { ...none, tokens: ["a"] }, want: [{ ...none, tokens: ["a"] }] },
  ])("$name", ({ slice, want }) => {
    expect(halves(slice)).toEqual(want);
  });
});

describe("SlicedRefresh.of (what live ranges touched)", () => {
  let db: TestDatabase;
  let sql: Sql;
  const head = { number: 100, timestamp: 1_000_000 };
  const token = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;

  beforeAll(async () => {
    db = await createTestDatabase("idx_sliced_refresh");
    sql = connect(db.url, { max: 1 });
    await sql`insert into wallets ${sql(
      [
        ["w1", 3],
        ["w2", 5_000],
      ].map(([address, trade_count]) => ({ address, trade_count, first_seen: new Date(0), last_seen: new Date(0) })),
    )}`;
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it("is one slice, cut without a read, when it is no larger than a large slice", async () => {
    const scope = { tokens: ["a", "b"], pools: ["p"], wallets: ["w1"] };
    const unread = new Proxy({}, { get: () => expect.unreachable("read") }) as Tx;
    const plan = await SlicedRefresh.of(unread, head, true, scope, ["b"]);
    expect(plan.next()).toEqual({ ...scope, unscored: ["b"] });
    plan.done([]);
    expect(plan.next()).toBeUndefined();
  });

  it("is cut as a full refresh when larger: pools, tokens, wallets, then the tokens to score again", async () => {
    const tokens = Array.from({ length: TOKEN_CHUNK + 1 }, (_, i) => token(i));
    const scope = { tokens, pools: ["p1", "p2"], wallets: ["w1", "w2", "w-unseen"] };
    const plan = await SlicedRefresh.of(sql as unknown as Tx, head, false, scope, [tokens[TOKEN_CHUNK]]);
    const cut: RefreshScope[] = [];
    const rescoreAfter = new Map([[2, ["r"]]]);
    for (let s = plan.next(), i = 0; s; s = plan.next(), i++) {
      cut.push(s);
      plan.done(rescoreAfter.get(i) ?? []);
    }
    expect(cut.map(({ earlier: _, ...s }) => s)).toEqual([
      { tokens: [], pools: ["p1", "p2"], wallets: [] },
      { tokens: tokens.slice(0, TOKEN_CHUNK), pools: [], wallets: [], unscored: [] },
      { tokens: [tokens[TOKEN_CHUNK]], pools: [], wallets: [], unscored: [tokens[TOKEN_CHUNK]] },
      // A wallet without a row yet is refreshed too (it counts no trades).
      { tokens: [], pools: [], wallets: ["w1", "w2", "w-unseen"], walletsUnscored: false, rescoreLater: true },
      { tokens: [], pools: [], wallets: [], rescore: ["r"] },
    ]);
  });

  it("leaves what it did not commit, the tokens to score again among the tokens, when a block comes", async () => {
    const tokens = Array.from({ length: TOKEN_CHUNK + 1 }, (_, i) => token(i));
    const scope = { tokens, pools: ["p1"], wallets: ["w1", "w2"] };
    const plan = await SlicedRefresh.of(sql as unknown as Tx, head, false, scope, []);
    plan.done([]); // the pools
    plan.done(["r"]); // the first tokens, and a token to score again that a wallet slice would name
    expect(plan.remaining()).toEqual({ tokens: [tokens[TOKEN_CHUNK], "r"], wallets: ["w1", "w2"] });
  });
});
