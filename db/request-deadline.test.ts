import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "@/tests/setup/database";

/**
 * A request's deadline reaches its statements: the app's own pools (getSql, getDb) and the
 * route wrapper's deadline (withDeadline), as a route handler uses them, on a real PostgreSQL.
 * Loaded after the environment names this file's database and a short deadline.
 */
type Modules = {
  response: typeof import("@/lib/api/response");
  client: typeof import("@/db/client");
};
let m: Modules;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let watcher: postgres.Sql;

beforeAll(async () => {
  db = await createTestDatabase("oci_deadline");
  vi.stubEnv("DATABASE_URL", db.url);
  vi.stubEnv("REQUEST_TIMEOUT_MS", "300");
  m = { response: await import("@/lib/api/response"), client: await import("@/db/client") };
  watcher = postgres(db.url, { max: 1, onnotice: () => {} });
  await watcher`create table marks (n int)`;
});
afterAll(async () => {
  // DATABASE_URL names the server's own database again, from which this one is dropped.
  vi.unstubAllEnvs();
  await m?.client.getSql().end();
  await watcher?.end();
  await db?.drop();
});

/** The app's statements running now whose text contains `text`. */
const running = async (text: string) =>
  (
    await watcher<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
      where application_name = 'onchain-intel' and state = 'active' and query like ${`%${text}%`}`
  )[0].n;
const marks = async () => (await watcher<{ n: number }[]>`select n from marks order by n`).map((r) => r.n);

type Failure = { code?: string; message?: string; cause?: Failure };
/** How `p` settled: `ok`, or its error's code and message (Drizzle's wrapped error's cause). */
const outcome = (p: Promise<unknown>, ok: string) =>
  p.then(
    () => ok,
    (err: Failure) => {
      const e = err.cause ?? err;
      return `${e.code}: ${e.message}`;
    },
  );

/** Starts `handler` as a route does, under the deadline: what the request answers, and how the handler itself ends. */
function request(handler: () => Promise<unknown>) {
  let work!: Promise<unknown>;
  const answered = outcome(
    m.response.withDeadline(() => {
      work = handler();
      return work;
    }),
    "answered",
  );
  return { answered, ended: () => outcome(work, "finished") };
}

const TIMED_OUT = "SERVER_ERROR: The request timed out. Retry after a moment.";

describe("a request past its deadline", () => {
  it("has its running statement cancelled, and runs none after it", async () => {
    const sql = m.client.getSql();
    const sleeping = request(() =>
      sql.begin(async (tx) => {
        // Only the deadline can stop what follows: statement_timeout is off in this transaction.
        await tx`set local statement_timeout = 0`;
        await tx`select pg_sleep(600) as slow_statement`;
        await tx`insert into marks values (1)`;
      }),
    );
    // It runs until the deadline...
    while ((await running("slow_statement")) === 0) await new Promise((r) => setTimeout(r, 10));
    // ... which answers 500 and cancels it: the transaction ends without its insert.
    expect(await sleeping.answered).toBe(TIMED_OUT);
    expect(await sleeping.ended()).toBe("57014: canceling statement due to user request");
    expect(await running("slow_statement")).toBe(0);
    expect(await marks()).toEqual([]);
  });

  it("sends no statement once the deadline has passed, through postgres.js or Drizzle", async () => {
    for (const insert of [
      () => m.client.getSql()`insert into marks values (2)`,
      () => m.client.getDb().execute("insert into marks values (3)"),
    ]) {
      let deadlinePassed!: () => void;
      const afterDeadline = new Promise<void>((resolve) => (deadlinePassed = resolve));
      const late = request(async () => {
        await afterDeadline;
        await insert();
      });
      // The handler's own work (not the database) outlasts the deadline.
      expect(await late.answered).toBe(TIMED_OUT);
      deadlinePassed();
      expect(await late.ended()).toBe(
        "DEADLINE_PASSED: The request's deadline has passed: the statement was not sent.",
      );
    }
    expect(await marks()).toEqual([]);
  });

  it("leaves a request in time, and statements outside any request, as they were", async () => {
    const sql = m.client.getSql();
    const inTime = request(async () => sql`insert into marks values (4)`);
    expect([await inTime.answered, await inTime.ended()]).toEqual(["answered", "finished"]);
    await sql`insert into marks values (5)`;
    expect(await marks()).toEqual([4, 5]);
    await sql`delete from marks`;
  });
});
