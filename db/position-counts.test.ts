import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "@/db/migrate";
import { INVARIANTS } from "@/scripts/fixtures/invariants";
import { createTestDatabase } from "@/tests/setup/database";

/**
 * The triggers of db/functions/position-counts.sql keep each wallet's number of positions and of
 * open ones, the transaction that last changed its open positions, and the sum of realized PnL less
 * cost basis: the positions list trusts the counts for its totals and keeps a wallet's open
 * positions while that transaction is the same, and the wallet profile adds its holdings' values
 * to that sum for its PnL.
 */
describe("position count triggers", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: postgres.Sql;

  /** Writes positions as the indexer does (an upsert), one transaction per call. */
  const upsert = (rows: { wallet: string; token: string; quantity: number; cost?: number; realized?: number }[]) =>
    sql`insert into wallet_positions ${sql(
      rows.map((r) => ({
        wallet: r.wallet,
        token_address: r.token,
        quantity: r.quantity,
        cost_basis_usd: r.cost ?? 0,
        realized_pnl_usd: r.realized ?? 0,
      })),
    )}
        on conflict (wallet, token_address) do update
          set quantity = excluded.quantity, cost_basis_usd = excluded.cost_basis_usd,
              realized_pnl_usd = excluded.realized_pnl_usd`;
  const counts = async () =>
    Object.fromEntries(
      (
        await sql<{ wallet: string; total: number; open: number; changed: string }[]>`
        select wallet, total, open, changed_xact::text as changed from wallet_position_counts`
      ).map((r) => [r.wallet, r]),
    );
  const mismatches = async () =>
    Number(
      (await sql.unsafe<{ count: string }[]>(INVARIANTS["wallet_position_counts agree with wallet_positions"]))[0]
        .count,
    );

  beforeAll(async () => {
    db = await createTestDatabase("oci_position_counts");
    await runMigrations(db.url);
    sql = postgres(db.url, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it("count positions and open ones, and mark the wallets whose open positions a write changed", async () => {
    await upsert([
      { wallet: "w1", token: "t1", quantity: 5 },
      { wallet: "w1", token: "t2", quantity: 3 },
      { wallet: "w2", token: "t1", quantity: 1 },
    ]);
    const start = await counts();
    expect(start.w1).toMatchObject({ total: 2, open: 2 });
    expect(Number(start.w1.changed)).toBeGreaterThan(0);

    // table-driven: a write, then which wallets' marks move.
    const t1 = { wallet: "w1", token: "t1", quantity: 7, cost: 12.1 };
    const steps: [string, () => Promise<unknown>, string[]][] = [
      ["a quantity of an open position changes", () => upsert([{ wallet: "w1", token: "t1", quantity: 7 }]), ["w1"]],
      ["only the cost basis changes", () => upsert([t1]), []],
      ["only the realized PnL changes", () => upsert([{ ...t1, realized: -0.3 }]), []],
      ["a position closes", () => upsert([{ wallet: "w2", token: "t1", quantity: 0 }]), ["w2"]],
      ["a position opens", () => upsert([{ wallet: "w2", token: "t3", quantity: 4 }]), ["w2"]],
      [
        "a plain update of a quantity",
        () => sql`update wallet_positions set quantity = 2 where wallet = 'w1' and token_address = 't2'`,
        ["w1"],
      ],
      [
        "a reorg deletes a position",
        () => sql`delete from wallet_positions where wallet = 'w2' and token_address = 't3'`,
        ["w2"],
      ],
    ];
    for (const [what, write, moved] of steps) {
      const before = await counts();
      await write();
      const after = await counts();
      expect(await mismatches(), what).toBe(0);
      expect(
        Object.keys(before).filter((w) => after[w]?.changed !== before[w].changed),
        what,
      ).toEqual(moved);
    }
    // The price-free part of the PnL is the exact sum of the rows, whatever writes led to them.
    const [w1] = await sql<{ booked: string }[]>`
      select realized_less_cost_usd::text as booked from wallet_position_counts where wallet = 'w1'`;
    expect(w1.booked).toBe("-12.4");
    await sql`delete from wallet_positions where wallet = 'w2'`;
    expect((await counts()).w2).toBeUndefined();
  });
});
