import { eq } from "drizzle-orm";
import { connect, createDb, type Db } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { accounts, billingSubscriptions, usageDaily } from "@/db/schema";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { createTestDatabase } from "@/tests/setup/database";
import { createCheckoutSession } from "../checkout";
import type { PaidPlan } from "../settings";
import { type Billing, createStripe } from "../stripe";
import { handleStripeWebhook } from "../webhook";
import { type FakeEvent, type StripeFake, startStripeFake } from "./stripe-fake";

export const WEBHOOK_SECRET = "whsec_test_billing";
export const PRICES = { pro: "price_pro_monthly", api_tier: "price_api_metered" } as const;
/** Stripe's clock and the app's "now" in these tests: a fixed moment, never the wall clock. */
export const START = new Date("2026-11-20T12:00:00Z");

export type BillingTest = {
  db: Db;
  fake: StripeFake;
  billing: Billing;
  /** The app's clock, kept equal to the fake Stripe's. */
  now: () => Date;
  /** Delivers events to the webhook handler as Stripe would (signed with the secret). */
  deliver: (...events: FakeEvent[]) => Promise<{ status: number; body: Record<string, unknown> }[]>;
  /** A new Free account with one key. */
  newAccount: (email?: string) => Promise<{ id: string; email: string | null; keyId: string }>;
  /** Checkout of a paid plan, paid: the subscription and the events Stripe sends about it. */
  subscribe: (
    account: { id: string; email: string | null },
    plan: PaidPlan,
  ) => Promise<{ subscriptionId: string; events: FakeEvent[] }>;
  planOf: (accountId: string) => Promise<string>;
  subscriptionOf: (id: string) => Promise<typeof billingSubscriptions.$inferSelect>;
  close: () => Promise<void>;
};

/** A migrated database of its own and a Stripe fake, with the app's billing pointed at the fake. */
export async function startBillingTest(prefix: string): Promise<BillingTest> {
  const database = await createTestDatabase(prefix);
  await runMigrations(database.url);
  const client = connect(database.url, { max: 4 });
  const db = createDb(client);
  const fake = await startStripeFake({ now: START.getTime() / 1000 });
  const settings = {
    secretKey: "sk_test_fake",
    webhookSecret: WEBHOOK_SECRET,
    prices: { ...PRICES },
    meterEventName: "api_requests",
    apiBase: new URL(fake.url),
  };
  const billing: Billing = { settings, stripe: createStripe(settings) };
  const now = () => new Date(fake.now() * 1000);
  let accountsMade = 0;

  const test: BillingTest = {
    db,
    fake,
    billing,
    now,
    deliver: async (...events) => {
      const outcomes = [];
      for (const e of events) {
        const { payload, signature } = fake.sign(e, WEBHOOK_SECRET);
        outcomes.push(await handleStripeWebhook(db, billing, payload, signature, now()));
      }
      return outcomes;
    },
    newAccount: async (email = `billing-${++accountsMade}@example.com`) => {
      const id = await ensureAccount(db, email);
      const key = await createKey(db, id, "main");
      return { id, email, keyId: key.id };
    },
    subscribe: async (account, plan) => {
      const { url } = await createCheckoutSession(db, billing, account, plan);
      const sessionId = url.split("/").pop()!;
      const { subscription, events } = fake.completeCheckout(sessionId);
      return { subscriptionId: subscription.id, events };
    },
    planOf: async (accountId) =>
      (await db.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId)))[0].plan,
    subscriptionOf: async (id) =>
      (await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, id)))[0],
    close: async () => {
      await fake.close();
      await client.end();
      await database.drop();
    },
  };
  return test;
}

/** Sets a key's count of requests on a UTC day, as api_authorize would have counted them. */
export async function setUsage(db: Db, keyId: string, day: string, requests: number) {
  await db
    .insert(usageDaily)
    .values({ keyId, day, requests })
    .onConflictDoUpdate({ target: [usageDaily.keyId, usageDaily.day], set: { requests } });
}
