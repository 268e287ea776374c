import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { accounts, users } from "@/db/schema";
import { ensureAccount } from "@/lib/keys/store";
import { createTestDatabase } from "@/tests/setup/database";
import { linkAccount } from "./link-account";

let drop: () => Promise<void>;
let sql: ReturnType<typeof connect>;
let db: Db;

beforeAll(async () => {
  const database = await createTestDatabase("auth_test");
  drop = database.drop;
  await runMigrations(database.url);
  sql = connect(database.url, { max: 2 });
  db = createDb(sql);
});

afterAll(async () => {
  await sql.end();
  await drop();
});

const newUser = async (email: string) => (await db.insert(users).values({ email }).returning())[0];

describe("linkAccount", () => {
  it("gives a first-time user a Free account of their own", async () => {
    const user = await newUser("new@example.com");
    const id = await linkAccount(db, user.id, user.email);
    const [account] = await db.select().from(accounts).where(eq(accounts.id, id));
    expect(account).toMatchObject({ userId: user.id, email: "new@example.com", plan: "free" });
    expect(await linkAccount(db, user.id, user.email)).toBe(id);
  });

  it("adopts the account the keys CLI made for the same email, plan and all", async () => {
    const existing = await ensureAccount(db, "cli@example.com", "pro");
    const user = await newUser("cli@example.com");
    expect(await linkAccount(db, user.id, user.email)).toBe(existing);
    const [account] = await db.select().from(accounts).where(eq(accounts.id, existing));
    expect(account).toMatchObject({ userId: user.id, plan: "pro" });
  });

  it("hands an orphaned account (its user deleted) to the next user of the email", async () => {
    const first = await newUser("orphan@example.com");
    const id = await linkAccount(db, first.id, first.email);
    await db.delete(users).where(eq(users.id, first.id));
    const second = await newUser("orphan@example.com");
    expect(await linkAccount(db, second.id, second.email)).toBe(id);
  });

  it("refuses an email whose account belongs to another, living user", async () => {
    const first = await newUser("moved@example.com");
    await linkAccount(db, first.id, first.email);
    await db.update(users).set({ email: "elsewhere@example.com" }).where(eq(users.id, first.id));
    const second = await newUser("moved@example.com");
    await expect(linkAccount(db, second.id, second.email)).rejects.toThrow(/another user/);
  });
});
