import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { createTestDatabase } from "@/tests/setup/database";
import { listHolders } from "./holders";

/** Who the holders list leaves out (lib/tokens/holders.ts): one row of each kind of non-holder. */
describe("holders list", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: postgres.Sql;
  const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
  const [token, quote, pool, manager, locker, router, alice, bob] = [0xa1, 0xa2, 0xb1, 0xc1, 0xc2, 0xc3, 0xd1, 0xd2].map(a);

  beforeAll(async () => {
    db = await createTestDatabase("oci_holders");
    await runMigrations(db.url);
    sql = postgres(db.url, { max: 2, onnotice: () => {} });
    await sql`insert into tokens ${sql(
      [token, quote].map((address) => ({ address, name: "T", symbol: "T", total_supply: "1000", launchpad: "", created_block: 1, created_at: new Date(0) })),
    )}`;
    await sql`insert into pools ${sql({ address: pool, factory: a(0xf), dex: "uniswap-v2", token0: token, token1: quote, created_block: 1 })}`;
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
    await sql`insert into balances ${sql(held.map(([holder, amount]) => ({ token_address: token, holder, amount, updated_block: 1 })))}`;
    await sql`insert into holder_count_history ${sql({ token_address: token, at: new Date(0), holder_count: 3 })}`;
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it("lists holders largest first without burn addresses, the token, pools and custodians", async () => {
    const page = await listHolders(createDb(sql), token, { page: 1, limit: 50 });
    expect(page?.data.map((h) => h.address)).toEqual([alice, router, bob]);
    expect(page?.total).toBe(3);
    expect((await listHolders(createDb(sql), token, { page: 2, limit: 2 }))?.data.map((h) => h.address)).toEqual([bob]);
  });
});
