import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Sql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { users } from "@/db/schema";
import { createTestDatabase } from "@/tests/setup/database";
import { closeAllSessions, closeSession, isSessionLive, openSession } from "./sessions";
import { SIGN_IN_EMAIL_LIMITS, SignInThrottled, takeSignInEmail } from "./sign-in-throttle";

let drop: () => Promise<void>;
let sql: Sql;

beforeAll(async () => {
  const database = await createTestDatabase("auth_sessions_test");
  drop = database.drop;
  await runMigrations(database.url);
  sql = connect(database.url, { max: 6 });
});

afterAll(async () => {
  await sql.end();
  await drop();
});

const newUser = async () =>
  (
    await createDb(sql)
      .insert(users)
      .values({ email: `${crypto.randomUUID()}@example.com` })
      .returning()
  )[0].id;

describe("session registry", () => {
  it("honours a session until it is closed, and closes every session of a user at once", async () => {
    const [alice, bob] = [await newUser(), await newUser()];
    const [laptop, phone, other] = [
      await openSession(sql, alice),
      await openSession(sql, alice),
      await openSession(sql, bob),
    ];
    expect(await Promise.all([laptop, phone, other].map((id) => isSessionLive(sql, id)))).toEqual([true, true, true]);

    await closeSession(sql, laptop);
    expect(await Promise.all([laptop, phone].map((id) => isSessionLive(sql, id)))).toEqual([false, true]);

    expect(await closeAllSessions(sql, alice)).toBe(1);
    expect(await Promise.all([phone, other].map((id) => isSessionLive(sql, id)))).toEqual([false, true]);
  });

  it("does not honour an expired session, and forgets it when the user signs in again", async () => {
    const user = await newUser();
    const old = await openSession(sql, user);
    await sql`update auth_sessions set expires = now() - interval '1 second' where session_token = ${old}`;
    expect(await isSessionLive(sql, old)).toBe(false);
    await openSession(sql, user);
    expect(await sql`select 1 from auth_sessions where session_token = ${old}`).toHaveLength(0);
  });
});

describe("sign-in email throttle", () => {
  const { perAddress, perClient } = SIGN_IN_EMAIL_LIMITS;

  it("lets an address have its limit of emails, even when the requests race, and no more", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: perAddress + 4 }, (_, i) => takeSignInEmail(sql, "Victim@Example.com", `198.51.100.${i}`)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(perAddress);
    for (const r of results.filter((r) => r.status === "rejected"))
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(SignInThrottled);
    // The address is the same in any case.
    await expect(takeSignInEmail(sql, "victim@example.com", "198.51.100.200")).rejects.toBeInstanceOf(SignInThrottled);
  });

  it("lets one client ask for its limit of emails across addresses", async () => {
    for (let i = 0; i < perClient; i++) await takeSignInEmail(sql, `person${i}@example.com`, "203.0.113.50");
    await expect(takeSignInEmail(sql, "one-more@example.com", "203.0.113.50")).rejects.toBeInstanceOf(SignInThrottled);
    await takeSignInEmail(sql, "one-more@example.com", "203.0.113.51");
  });

  it("counts only the window's requests, and stores neither addresses nor clients in clear", async () => {
    await sql`update sign_in_requests set requested_at = now() - interval '2 hours'`;
    await takeSignInEmail(sql, "victim@example.com", "203.0.113.50");
    const rows = await sql`select address_hash, client_hash from sign_in_requests`;
    expect(JSON.stringify(rows)).not.toMatch(/example\.com|203\.0\.113/);
  });
});
