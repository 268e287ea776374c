import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { createTestDatabase } from "@/tests/setup/database";
import { holderListRead } from "./holders";
import { runRead } from "./read";

/** Who the holders list leaves out (lib/tokens/holders.ts): one row of each kind of non-holder. */
describe("holders list", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: postgres.Sql;
  const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
  const [token, quote, pool, manager, locker, router, alice, bob] = [
    0xa1, 0xa2, 0xb1, 0xc1, 0xc2, 0xc3, 0xd1, 0xd2,
  ].map(a);

  beforeAll(async () => {
    db = await createTestDatabase("oci_holders");
    await runMigrations(db.url);
    sql = postgres(db.url, { max: 2, onnotice: () => {} });
    await sql`insert into tokens ${sql(
      [token, quote].map((address) => ({
        address,
        name: "T",
        symbol: "T",
        total_supply: "1000",
        launchpad: "",
        created_block: 1,
        created_at: new Date(0),
      })),
    )}`;
    const pair = { address: pool, factory: a(0xf), dex: "uniswap-v2", token0: token, token1: quote, created_block: 1 };
    await sql`insert into pools ${sql(pair)}`;
    await sql`insert into chain_contracts ${sql([
      { address: manager, role: "position_manager", name: "positions" },
      { address: locker, role: "locker", name: "locker" },
      { address: router, role: "router", name: "router" },
    ])}`;
    const held: [string, number][] = [
      [alice, 100],
      [pool, 90],
      [manager, 80],
      [locker, 70],
      ["0x0000000000000000000000000000000000000000", 60],
      ["0x000000000000000000000000000000000000dead", 50],
      [token, 40],
      [router, 30],
      [bob, 20],
      [a(0xd3), 0],
    ];
    const balances = held.map(([holder, amount]) => ({ token_address: token, holder, amount, updated_block: 1 }));
    await sql`insert into balances ${sql(balances)}`;
    await sql`insert into holder_count_history ${sql({ token_address: token, at: new Date(0), holder_count: 3 })}`;
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it("lists holders largest first without burn addresses, the token, pools and custodians", async () => {
    const page = await runRead(createDb(sql), holderListRead(token, { page: 1, limit: 50 }));
    expect(page?.data.map((h) => h.address)).toEqual([alice, router, bob]);
    expect(page?.total).toBe(3);
    expect(
      (await runRead(createDb(sql), holderListRead(token, { page: 2, limit: 2 })))?.data.map((h) => h.address),
    ).toEqual([bob]);
  });

  it("tags a holder cluster only where the scores count its wallets as one owner, not a hub's customers", async () => {
    const other = a(0xa3);
    // Text times: the Drizzle handle of the first test turned the client's date serializer off.
    const epoch = new Date(0).toISOString();
    const otherToken = { address: other, name: "U", symbol: "U", total_supply: "1000", launchpad: "" };
    await sql`insert into tokens ${sql({ ...otherToken, created_block: 1, created_at: epoch })}`;
    // Funders: a hub that paid 60 wallets, a loose one that paid 10, a managed one that paid 3; each has 2 or 3 on the
    // token.
    const [hub, loose, managed] = [0xe1, 0xe2, 0xe3].map(a);
    const clusters: [string, number, number, number][] = [
      [hub, 0x1000, 60, 3],
      [loose, 0x2000, 10, 2],
      [managed, 0x3000, 3, 2],
    ];
    const wallets = clusters.flatMap(([funder, from, size]) =>
      Array.from({ length: size }, (_, i) => ({
        address: a(from + i),
        first_seen: epoch,
        last_seen: epoch,
        funder,
        cluster_id: funder,
      })),
    );
    await sql`insert into wallets ${sql(wallets)}`;
    const held = clusters.flatMap(([, from, , holding]) => Array.from({ length: holding }, (_, i) => a(from + i)));
    const balances = held.map((holder, i) => ({ token_address: other, holder, amount: 10 + i, updated_block: 1 }));
    await sql`insert into balances ${sql(balances)}`;
    const page = await runRead(createDb(sql), holderListRead(other, { page: 1, limit: 50 }));
    const tagged = Object.fromEntries((page?.data ?? []).map((h) => [h.address, h.tags]));
    expect(Object.keys(tagged)).toHaveLength(held.length);
    for (const holder of held)
      expect(tagged[holder], holder).toEqual(holder >= a(0x3000) ? [`cluster:${managed}`] : []);
  });
});
