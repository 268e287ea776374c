import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "@/db/migrate";
import { INVARIANTS } from "@/scripts/fixtures/invariants";
import { createTestDatabase } from "@/tests/setup/database";

/**
 * The triggers of db/functions/launch-counts.sql keep each wallet's number of launches: a
 * wallet's launch list trusts it for its exact total, through every way the tokens change.
 */
describe("launch count triggers", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: postgres.Sql;

  const token = (address: string, creator: string | null, block: number) => ({
    address,
    name: address,
    symbol: address,
    total_supply: "1",
    launchpad: "test",
    creator,
    created_block: block,
    created_at: new Date(0),
  });
  const counts = async () =>
    Object.fromEntries(
      (await sql<{ wallet: string; total: number }[]>`select wallet, total from wallet_launch_counts`).map((r) => [
        r.wallet,
        r.total,
      ]),
    );
  const mismatches = async () =>
    Number((await sql.unsafe<{ count: string }[]>(INVARIANTS["wallet_launch_counts agree with tokens"]))[0].count);

  beforeAll(async () => {
    db = await createTestDatabase("oci_launch_counts");
    await runMigrations(db.url);
    sql = postgres(db.url, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it("count each wallet's launches through inserts, copies, reorgs, moves and truncation", async () => {
    // table-driven: a write, then every wallet's count.
    const steps: [string, () => Promise<unknown>, Record<string, number>][] = [
      [
        "a range's new tokens, one without a creator",
        () => sql`insert into tokens ${sql([token("t1", "w1", 1), token("t2", "w1", 2), token("t3", null, 2)])}`,
        { w1: 2 },
      ],
      [
        "a bulk copy",
        async () =>
          pipeline(
            Readable.from(["t4\tt4\tt4\t1\ttest\tw2\t3\t2026-01-01\nt5\tt5\tt5\t1\ttest\tw1\t3\t2026-01-01\n"]),
            await sql`copy tokens (address, name, symbol, total_supply, launchpad, creator, created_block, created_at) from stdin`.writable(),
          ),
        { w1: 3, w2: 1 },
      ],
      ["a reorg drops the tokens above block 2", () => sql`delete from tokens where created_block > 2`, { w1: 2 }],
      [
        "a creator set on a token found through its pool",
        () => sql`update tokens set creator = 'w2' where address = 't3'`,
        { w1: 2, w2: 1 },
      ],
      ["a launch moved", () => sql`update tokens set creator = 'w2' where address = 't1'`, { w1: 1, w2: 2 }],
      ["a supply update", () => sql`update tokens set total_supply = 2`, { w1: 1, w2: 2 }],
      ["truncation", () => sql`truncate tokens cascade`, {}],
    ];
    for (const [what, write, expected] of steps) {
      await write();
      expect(await counts(), what).toEqual(expected);
      expect(await mismatches(), what).toBe(0);
    }
  });
});
