import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "@/db/migrate";
import { INVARIANTS } from "@/scripts/fixtures/invariants";
import { createTestDatabase } from "@/tests/setup/database";

/**
 * The triggers of db/functions/event-counts.sql keep per-block running totals of events and the
 * totals per token and wallet; the list totals and deep pages trust them. Every kind of write
 * the indexer and the loaders make must leave them equal to a recount: appends at the head, a
 * late token's events in old blocks, a reorg's delete of the tail, a delete in the middle, a
 * truncate, and the bulk rebuild.
 */
describe("event count triggers", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: postgres.Sql;
  const TYPES = ["swap", "transfer", "liquidity_add", "liquidity_remove"];
  /** One of three wallets or tokens: the per-token and per-wallet totals see several parties. */
  const party = (c: string, n: number) => `0x${c.repeat(39)}${n % 3}`;

  const insert = (blocks: number[], perBlock = 3) =>
    sql`insert into events ${sql(
      blocks.flatMap((b) =>
        Array.from({ length: perBlock }, (_, i) => ({
          id: b * 100_000 + i + (b % 7) * 10,
          type: TYPES[(b + i) % TYPES.length],
          wallet_address: party("a", b + i),
          // Transfers name a receiver: another wallet, or now and then the sender itself.
          to_address: TYPES[(b + i) % TYPES.length] === "transfer" ? party("a", b * i + 1) : null,
          token_address: party("b", b),
          block_number: b,
          log_index: i + (b % 7) * 10,
          tx_hash: `0x${b}`,
          timestamp: new Date(1_700_000_000_000 + b * 2000),
        })),
      ),
    )}`;

  /** One swap of wallet 0x1 in token 0x2, now. */
  const swap = (id: number, block: number, logIndex: number, txHash: string) => ({
    id,
    type: "swap",
    wallet_address: "0x1",
    token_address: "0x2",
    block_number: block,
    log_index: logIndex,
    tx_hash: txHash,
    timestamp: new Date(),
  });

  const mismatches = async () => {
    const [row] = await sql.unsafe<{ count: string }[]>(INVARIANTS["event_cumulative_counts agree with events"]);
    const [totals] = await sql.unsafe<{ count: string }[]>(INVARIANTS["event_counts agree with events"]);
    return Number(row.count) + Number(totals.count);
  };

  beforeAll(async () => {
    db = await createTestDatabase("oci_event_counts");
    await runMigrations(db.url);
    sql = postgres(db.url, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it("stay equal to a recount through appends, late inserts, deletes, truncate and rebuild", async () => {
    await insert([1, 2, 3, 5, 8]);
    expect(await mismatches()).toBe(0);
    await insert([9, 10, 11], 5); // the head
    expect(await mismatches()).toBe(0);
    await insert([4, 6, 7], 2); // old blocks, as a token found late brings
    expect(await mismatches()).toBe(0);
    await insert([0, 12], 1); // an old block and a new one in one statement
    expect(await mismatches()).toBe(0);
    await sql`insert into events ${sql(swap(300_050, 3, 50, "0x3"))}`;
    expect(await mismatches()).toBe(0); // an existing block grows
    await sql`delete from events where block_number >= 10`; // a reorg
    expect(await mismatches()).toBe(0);
    await sql`delete from events where block_number = 5 or id = 300050`;
    expect(await mismatches()).toBe(0);
    const [{ scopes }] =
      await sql`select count(distinct scope)::int as scopes from event_cumulative_counts where block_number = 5`;
    expect(scopes).toBe(0); // emptied blocks leave no rows

    await sql`alter table events disable trigger events_count_insert`;
    await insert([20, 15, 30]);
    await sql`alter table events enable trigger events_count_insert`;
    expect(await mismatches()).toBeGreaterThan(0);
    await sql`select event_counts_rebuild()`;
    expect(await mismatches()).toBe(0);

    await sql`truncate events`;
    const [{ n }] =
      await sql`select (select count(*) from event_cumulative_counts) + (select count(*) from event_counts) as n`;
    expect(Number(n)).toBe(0);
  });

  it("update only the blocks a write at the head touches, however long the history", async () => {
    await sql`truncate events`;
    // Inserted with the trigger off and counted once, as the bulk loaders do.
    await sql`alter table events disable trigger events_count_insert`;
    for (let from = 1; from <= 20_000; from += 5_000)
      await insert(
        Array.from({ length: 5_000 }, (_, i) => from + i),
        1,
      );
    await sql`alter table events enable trigger events_count_insert`;
    await sql`select event_counts_rebuild()`;
    await sql`analyze event_cumulative_counts`;
    const scans = await sql.begin(async (tx) => {
      // Read before and after: PostgreSQL 15 also shows counts of earlier transactions not yet reported.
      const seqScans = async () =>
        (
          await tx<
            { n: number }[]
          >`select seq_scan::int as n from pg_stat_xact_user_tables where relname = 'event_cumulative_counts'`
        )[0].n;
      const before = await seqScans();
      await tx`insert into events ${tx(swap(2_000_100_000, 20_001, 0, "0x"))}`;
      await tx`delete from events where block_number = 20000`;
      return (await seqScans()) - before;
    });
    expect(scans).toBe(0);
    expect(await mismatches()).toBe(0);
  });
});
