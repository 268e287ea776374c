import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import type { TokenFilter } from "@/lib/domain/token-filter";
import type { TokenSort } from "@/lib/domain/vocab";
import { createTestDatabase } from "@/tests/setup/database";
import { queryTokenList, type Snapshot, snapshotAt } from "./token-list-index";
import { searchTokenIndex } from "./token-search-index";

const NOW = new Date(1_700_000_000_000 + 1e9);

/** Lists that read sort orders (one of a column read on first use), filter indexes and flags. */
const LISTS: { sort: TokenSort; filter: TokenFilter }[] = [
  { sort: "trending", filter: {} },
  { sort: "newest", filter: { max_age_hours: 100, exclude_flags: ["wash_trading"] } },
  { sort: "liquidity", filter: { min_liquidity_usd: 200_000, max_risk_score: 60 } },
  { sort: "holders", filter: { exclude_flags: ["sybil_cluster", "liquidity_pulled"] } },
  { sort: "volume_asc", filter: {} },
];

/**
 * A build from the last snapshot reads only the token_metrics rows written since it, and must equal
 * a whole read of the table at every step: changed and new tokens, a write that overlapped the
 * last read, deletes. What it carries from the last (sort orders, filter indexes, search keys)
 * must list and find what a whole read's own do.
 */
describe("token list snapshots built from the last one", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: postgres.Sql;
  let reader: postgres.Sql;
  let version = 0;
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const address = () =>
    `0x${Math.floor(random() * 2 ** 52)
      .toString(16)
      .padStart(40, "0")}`;
  const FLAGS = ["wash_trading", "liquidity_pulled", "sybil_cluster"];
  const word = () =>
    Array.from({ length: 1 + Math.floor(random() * 3) }, () => "abc"[Math.floor(random() * 3)]).join("");

  /** The tokens in the table, for picking some. */
  const all: string[] = [];

  async function addTokens(addresses: string[]) {
    const created = addresses.map(() => new Date(1_700_000_000_000 + Math.floor(random() * 1e9)));
    const token = (a: string, i: number) => ({
      address: a,
      name: word(),
      symbol: word(),
      total_supply: "1",
      launchpad: "",
      created_block: 1,
      created_at: created[i],
    });
    const metrics = (a: string, i: number) => ({
      address: a,
      created_at: created[i],
      liquidity_usd: random() * 1e6,
      risk_score: Math.floor(random() * 100),
    });
    await sql`insert into tokens ${sql(addresses.map(token))}`;
    await sql`insert into token_metrics ${sql(addresses.map(metrics))}`;
    all.push(...addresses);
  }

  async function change(addresses: string[], x: postgres.Sql | postgres.TransactionSql = sql) {
    for (const a of addresses) {
      const flags = FLAGS.filter(() => random() < 0.4);
      await x`update token_metrics set liquidity_usd = ${random() * 1e6}, volume_24h_usd = ${random() * 1e5},
                 holder_count = ${Math.floor(random() * 500)}, risk_flags = ${flags} where address = ${a}`;
    }
  }

  /** n distinct tokens of the table, removed from `all` if `remove`. */
  function pick(n: number, remove = false): string[] {
    const picked = new Set<string>();
    while (picked.size < n) picked.add(all[Math.floor(random() * all.length)]);
    if (remove) for (const a of picked) all.splice(all.indexOf(a), 1);
    return [...picked];
  }

  /** Each list and search of LISTS and `queries` on data version `version`. */
  async function readsOf(d: Db, version: number) {
    const lists = [];
    for (const q of LISTS) lists.push(await queryTokenList(d, version, { ...q, page: 1, limit: 1000 }, NOW));
    const searches = [];
    for (const q of ["a", "ab", "cc", "0x0"])
      searches.push(await searchTokenIndex(d, version, q, true, { offset: 0, limit: 1000 }));
    return { lists, searches: searches.map((r) => ({ ...r, version: 0 })) };
  }

  /** `s` holds what a fresh reader's whole read does (in address order, whatever its positions), and reads alike. */
  async function expectWhole(s: Snapshot) {
    const client = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const fresh = createDb(client);
      const whole = await snapshotAt(fresh, 1);
      const inAddressOrder = <T>(x: ArrayLike<T>) => Array.from(s.byAddress, (p) => x[p]);
      expect(inAddressOrder(s.addresses)).toEqual(whole.addresses);
      expect(inAddressOrder(s.flags)).toEqual(Array.from(whole.flags));
      for (const [column, values] of Object.entries(whole.columns))
        expect({ column, values: inAddressOrder(s.columns[column as keyof Snapshot["columns"]]!) }).toEqual({
          column,
          values: Array.from(values),
        });
      expect(await readsOf(createDb(reader), s.version)).toEqual(await readsOf(fresh, 1));
    } finally {
      await client.end();
    }
  }

  const next = () => snapshotAt(createDb(reader), ++version);

  beforeAll(async () => {
    db = await createTestDatabase("oci_token_list");
    await runMigrations(db.url);
    sql = postgres(db.url, { max: 2, onnotice: () => {} });
    reader = postgres(db.url, { max: 2, onnotice: () => {} });
    await addTokens(Array.from({ length: 300 }, address));
  });
  afterAll(async () => {
    await sql?.end();
    await reader?.end();
    await db?.drop();
  });

  it("reads every row first, then only those written since, new tokens in address order", async () => {
    const first = await next();
    expect(first.rowsRead).toBe(300);
    await expectWhole(first);
    for (let round = 0; round < 5; round++) {
      const changed = pick(10 + round);
      await change(changed);
      // New tokens before, between and after the others in address order.
      const added = [
        ...Array.from({ length: 6 }, address),
        `0x${"0".repeat(40)}${round}`,
        `0x${"f".repeat(40)}${round}`,
      ];
      await addTokens(added);
      const s = await next();
      expect(s.rowsRead).toBe(changed.length + added.length);
      await expectWhole(s);
    }
    const unchanged = await next();
    expect(unchanged.rowsRead).toBe(0);
    await expectWhole(unchanged);
  });

  it("serves the last snapshot while the next builds, and carries what requests derive on it meanwhile", async () => {
    const d = createDb(reader);
    const base = await next();
    await readsOf(d, base.version);
    await change(pick(15));
    await addTokens(Array.from({ length: 7 }, address));
    const building = next();
    let built = false;
    void building.then(() => {
      built = true;
    });
    // Sorts and filters base has not derived yet (columns read on first use among them), asked between the build's steps.
    const asked: { sort: TokenSort; filter: TokenFilter }[] = [
      { sort: "fdv", filter: { min_market_cap_usd: 0, min_holder_growth_1h_pct: -100 } },
      { sort: "price_change_1h_asc", filter: { max_risk_score: 40 } },
      { sort: "liquidity_asc", filter: { max_age_hours: 50, exclude_flags: ["liquidity_pulled"] } },
    ];
    const served: Promise<unknown>[] = [];
    for (let i = 0; !built; i++) {
      served.push(queryTokenList(d, base.version, { ...asked[i % asked.length], page: 1, limit: 50 }, NOW));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(served);
    expect(served.length).toBeGreaterThan(asked.length);
    await expectWhole(await building);
  });

  it("reads a write that was under way at the last read once it commits", async () => {
    await next();
    const [token] = pick(1);
    all.splice(all.indexOf(token), 1);
    let commit!: () => void;
    const held = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let written!: () => void;
    const inTransaction = new Promise<void>((resolve) => {
      written = resolve;
    });
    const writer = sql.begin(async (tx) => {
      await change([token], tx);
      written();
      await held;
    });
    await inTransaction;
    // A later transaction that commits first: the read then sees past the one still under way.
    await change(pick(1));
    const during = await next();
    commit();
    await writer;
    await expectWhole(await next());
    expect(during.rowsRead).toBe(1);
  });

  it("reads every row again after a delete, and not after a delete of none", async () => {
    await next();
    await sql`delete from tokens where address = any(${pick(3, true)})`;
    const afterDelete = await next();
    const [{ count }] = await sql<{ count: number }[]>`select count(*)::int from token_metrics`;
    expect(afterDelete.rowsRead).toBe(count);
    await expectWhole(afterDelete);
    await sql`delete from token_metrics where address = 'none'`;
    await change(pick(2));
    const afterNone = await next();
    expect(afterNone.rowsRead).toBe(2);
    await expectWhole(afterNone);
  });
  // Last: the table made anew carries no triggers.
  it("reads every row again from a table made anew under the same name", async () => {
    await next();
    await sql`alter table token_metrics rename to token_metrics_old`;
    await sql`create table token_metrics (like token_metrics_old including all)`;
    // One row fewer, the others as they were (their changed_xact too, which the last read saw).
    await sql`insert into token_metrics select * from token_metrics_old where address <> ${pick(1, true)[0]}`;
    const s = await next();
    const [{ count }] = await sql<{ count: number }[]>`select count(*)::int from token_metrics`;
    expect(s.rowsRead).toBe(count);
    await expectWhole(s);
  });
});
