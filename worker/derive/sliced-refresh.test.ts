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

  /** Runs `plan`, each slice committed at once; `rescoreAfter`: the tokens the i-th slice leaves to score again. */
  const runAll = async (plan: SlicedRefresh, rescoreAfter = new Map<number, string[]>()) => {
    const ran: RefreshScope[] = [];
    const complete = await plan.run(
      async (slice) => ({ rescore: rescoreAfter.get(ran.push(slice) - 1) ?? [], scoringRows: new Map() }),
      async () => false,
    );
    return { complete, ran };
  };

  it("is one slice, cut without a read, when it is no larger than a large slice", async () => {
    const scope = { tokens: ["a", "b"], pools: ["p"], wallets: ["w1"] };
    const unread = new Proxy({}, { get: () => expect.unreachable("read") }) as Tx;
    const plan = await SlicedRefresh.of(unread, head, true, scope, ["b"]);
    expect(await runAll(plan)).toEqual({ complete: true, ran: [{ ...scope, unscored: ["b"] }] });
  });

  it("is cut as a full refresh when larger: pools, tokens, wallets, then the tokens to score again", async () => {
    const tokens = Array.from({ length: TOKEN_CHUNK + 1 }, (_, i) => token(i));
    const scope = { tokens, pools: ["p1", "p2"], wallets: ["w1", "w2", "w-unseen"] };
    const plan = await SlicedRefresh.of(sql as unknown as Tx, head, false, scope, [tokens[TOKEN_CHUNK]]);
    const { complete, ran } = await runAll(plan, new Map([[2, ["r"]]]));
    expect(complete).toBe(true);
    expect(ran.map(({ earlier: _, ...s }) => s)).toEqual([
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
    const plan = await SlicedRefresh.of(sql as unknown as Tx, head, true, scope, []);
    const ran: RefreshScope[] = [];
    // The pools, then the first tokens, which leave a token to score again as a wallet slice would name one.
    const complete = await plan.run(
      async (slice) => ({ rescore: ran.push(slice) === 2 ? ["r"] : [], scoringRows: new Map() }),
      async () => ran.length === 2,
    );
    expect(complete).toBe(false);
    expect(ran[1].tokens).toEqual(tokens.slice(0, 200));
    expect(plan.remaining()).toEqual({ tokens: [...tokens.slice(200), "r"], wallets: ["w1", "w2"] });
  });

  it("tries a slice that gave way to a block again in halves", async () => {
    const scope = { tokens: ["a", "b"], pools: ["p"], wallets: ["w1"] };
    const plan = await SlicedRefresh.of(sql as unknown as Tx, head, true, scope, []);
    expect(
      await plan.run(
        async () => null,
        async () => false,
      ),
    ).toBe(false);
    const { ran } = await runAll(plan);
    expect(ran.map((s) => s.tokens)).toEqual([["a"], ["b"]]);
  });
});

describe("SlicedRefresh.run (a plan of large slices, two of a stage at once)", () => {
  let db: TestDatabase;
  let sql: Sql;
  const head = { number: 100, timestamp: 1_000_000 };
  const tokens = Array.from({ length: 2 * TOKEN_CHUNK + 1 }, (_, i) => `0x${i.toString(16).padStart(40, "0")}`);
  const scope = { tokens, pools: ["p1"], wallets: ["w1"] };

  beforeAll(async () => {
    db = await createTestDatabase("idx_sliced_run");
    sql = connect(db.url, { max: 1 });
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  /** Runs `plan` with slices the test ends one by one: `running` holds those started and not ended. */
  const controlled = (plan: SlicedRefresh) => {
    const running = new Map<string, { end: (rescore: string[]) => void; fail: (err: Error) => void }>();
    const name = (s: RefreshScope) =>
      s.pools.length > 0
        ? "pools"
        : s.wallets.length > 0
          ? "wallets"
          : s.rescore
            ? `rescore ${s.rescore}`
            : `tokens ${s.tokens.length}:${s.tokens[0]}`;
    const outcome = plan.run(
      (slice) =>
        new Promise((resolve, reject) =>
          running.set(name(slice), {
            end: (rescore) => resolve({ rescore, scoringRows: new Map() }),
            fail: reject,
          }),
        ),
      async () => false,
    );
    outcome.catch(() => {});
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    /** Ends the running slice `n` (a commit, or a failure) and lets the plan start what follows. */
    const end = async (n: string, outcome: string[] | Error = []) => {
      const slice = running.get(n);
      if (!slice) throw new Error(`${n} is not running: ${[...running.keys()]}`);
      running.delete(n);
      if (outcome instanceof Error) slice.fail(outcome);
      else slice.end(outcome);
      await settle();
    };
    return { running: () => [...running.keys()], end, settle, outcome };
  };

  it("starts a stage's slices two at a time, and a stage once the one before it is done", async () => {
    const plan = controlled(await SlicedRefresh.of(sql as unknown as Tx, head, false, scope, []));
    await plan.settle();
    expect(plan.running()).toEqual(["pools"]);
    await plan.end("pools");
    const [first, second, third] = [
      `tokens ${TOKEN_CHUNK}:${tokens[0]}`,
      `tokens ${TOKEN_CHUNK}:${tokens[TOKEN_CHUNK]}`,
      `tokens 1:${tokens[2 * TOKEN_CHUNK]}`,
    ];
    expect(plan.running()).toEqual([first, second]);
    await plan.end(second);
    expect(plan.running()).toEqual([first, third]);
    await plan.end(third);
    // The wallets read every token's scores: they wait for the last.
    expect(plan.running()).toEqual([first]);
    await plan.end(first);
    expect(plan.running()).toEqual(["wallets"]);
    await plan.end("wallets", ["t"]);
    expect(plan.running()).toEqual(["rescore t"]);
    await plan.end("rescore t");
    expect(await plan.outcome).toBe(true);
  });

  it("starts no slice after a failure, lets the running one end, then throws and keeps the failed one", async () => {
    const sliced = await SlicedRefresh.of(sql as unknown as Tx, head, false, scope, []);
    const plan = controlled(sliced);
    await plan.settle();
    await plan.end("pools");
    const [first, second] = [`tokens ${TOKEN_CHUNK}:${tokens[0]}`, `tokens ${TOKEN_CHUNK}:${tokens[TOKEN_CHUNK]}`];
    await plan.end(first, new Error("connection lost"));
    expect(plan.running()).toEqual([second]);
    await plan.end(second);
    await expect(plan.outcome).rejects.toThrow("connection lost");
    expect(sliced.remaining()).toEqual({
      tokens: [...tokens.slice(0, TOKEN_CHUNK), tokens[2 * TOKEN_CHUNK]],
      wallets: ["w1"],
    });
  });
});
