import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { createTestDatabase } from "@/tests/setup/database";
import { mapPausing } from "../derive/pausing";
import { GiveWay, transactionGivingWay } from "./give-way";

/** Holds the thread for `ms` at least, as scoring a busy token does. */
function hold(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) Math.sqrt(until);
}

describe("a refresh giving way to a new block", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: Sql;

  beforeAll(async () => {
    db = await createTestDatabase("giveway_test");
    sql = connect(db.url, { max: 3 });
  });
  afterAll(async () => {
    await sql.end();
    await db.drop();
  });

  /** Resolves once a statement of this database runs pg_sleep (read from another connection). */
  async function sleeping() {
    for (;;) {
      const [row] = await sql`select count(*)::int as n from pg_stat_activity
                                where datname = current_database() and query like 'select pg_sleep%'
                                  and state = 'active'`;
      if (row.n > 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it("cancels the statement in flight when the head moves, and the transaction rolls back", async () => {
    await sql`create table if not exists give_way_probe (n int)`;
    // The head moves while the long statement runs: the watch sees it on its next poll.
    const watch = new GiveWay(() => sleeping().then(() => true), 0, 10);
    const run = sql.begin(async (tx) => {
      const t = watch.track(tx);
      await t.unsafe("insert into give_way_probe values (1)");
      await t.unsafe("select pg_sleep(3600)");
      await t.unsafe("insert into give_way_probe values (2)");
    });
    await expect(run).rejects.toMatchObject({ code: "57014" });
    await watch.stop();
    expect(watch.saw).toBe(true);
    const rows = await sql`select n from give_way_probe`;
    expect(rows).toHaveLength(0);
  });

  it("starts no statement once a new block was seen, and never polls after stop", async () => {
    let polls = 0;
    const watch = new GiveWay(async () => (polls++, true), 0, 10);
    while (!watch.saw) await new Promise((r) => setTimeout(r, 5));
    const run = sql.begin(async (tx) => {
      await watch.track(tx).unsafe("select 1");
    });
    await expect(run).rejects.toThrow("gave way");
    await watch.stop();
    expect(polls).toBe(1);
  });

  it("fails a statement refused after a block as a cancelled one, so no sibling's failure goes unhandled", async () => {
    const watch = new GiveWay(async () => true, 0, 10);
    while (!watch.saw) await new Promise((r) => setTimeout(r, 5));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const run = sql.begin(async (tx) => {
        const t = watch.track(tx);
        const started = async () => t.unsafe("select 1");
        // The first statement is started (and refused) before the second is refused, as in lpLockedShares.
        await Promise.all([started(), t.unsafe("select 2")]);
      });
      await expect(run).rejects.toThrow("gave way");
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      await watch.stop();
    }
  });

  it("returns at once when it gives way while its work runs on, and that work never commits", async () => {
    await sql`create table if not exists give_way_late (n int)`;
    let moved = false;
    const watch = new GiveWay(async () => moved, 0, 5);
    // Work a cancel cannot stop (the scoring of rows already read), still going when the block is seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const result = transactionGivingWay(
      sql,
      watch,
      async (tx) => {
        await tx.unsafe("insert into give_way_late values (1)");
        moved = true;
        await held;
        return "figures";
      },
      async (tx) => {
        await tx.unsafe("insert into give_way_late values (2)");
      },
    );
    // Resolves before the work is released: without the race it would wait for it (and time out here).
    expect(await result).toBeNull();
    release();
    // The block was seen after the work's last statement: its transaction still rolls back. The lock waits for its end.
    const rows = await sql.begin(async (tx) => {
      await tx`lock table give_way_late`;
      return tx`select n from give_way_late`;
    });
    expect(rows).toHaveLength(0);
    expect(watch.saw).toBe(true);
  });

  it("stops a computation at its next pause once a new block is seen, not after its last item", async () => {
    let moved = false;
    const watch = new GiveWay(async () => moved, 0, 1);
    const scored: number[] = [];
    const run = sql.begin(async (tx) => {
      const t = watch.track(tx);
      await t.unsafe("select 1");
      // The block comes while the first item is scored; each item holds the thread past a pause's interval.
      await mapPausing(t, [0, 1, 2, 3, 4, 5, 6, 7], (i) => {
        moved = true;
        hold(10);
        scored.push(i);
      });
    });
    await expect(run).rejects.toThrow("gave way");
    await watch.stop();
    expect(watch.saw).toBe(true);
    expect(scored.length).toBeLessThan(8);
  });

  it("maps every item in order through the pauses when no block comes", async () => {
    const watch = new GiveWay(async () => false, 0, 1);
    const out = await sql.begin((tx) => mapPausing(watch.track(tx), [1, 2, 3], (i) => (hold(6), i * 2)));
    await watch.stop();
    expect(out).toEqual([2, 4, 6]);
  });

  it("commits and returns the work's result when no block comes", async () => {
    await sql`create table if not exists give_way_done (n int)`;
    const watch = new GiveWay(async () => false, 0, 5);
    const result = await transactionGivingWay(
      sql,
      watch,
      async (tx) => (await tx.unsafe("insert into give_way_done values (1)"), "figures"),
      async (tx) => {
        await tx.unsafe("insert into give_way_done values (2)");
      },
    );
    expect(result).toBe("figures");
    expect((await sql`select n from give_way_done order by n`).map((r) => r.n)).toEqual([1, 2]);
  });

  it("polls on its interval until stopped while no block comes", async () => {
    let polls = 0;
    const watch = new GiveWay(async () => (polls++, false), 0, 5);
    while (polls < 3) await new Promise((r) => setTimeout(r, 5));
    await watch.stop();
    const stoppedAt = polls;
    await new Promise((r) => setTimeout(r, 30));
    expect(polls).toBe(stoppedAt);
    expect(watch.saw).toBe(false);
  });
});
