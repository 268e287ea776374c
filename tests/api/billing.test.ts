import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { createCheckoutSession } from "@/lib/billing/checkout";
import { type Billing, createStripe } from "@/lib/billing/stripe";
import { type StripeFake, startStripeFake } from "@/lib/billing/test/stripe-fake";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { createTestDatabase } from "@/tests/setup/database";
import { type AppServer, startAppServer } from "@/tests/setup/server";

/**
 * Billing through the production server: a server of its own with Stripe configured and
 * pointed at the loopback fake, receiving Stripe's signed webhooks on its real route.
 */
const SECRET = "whsec_api_test";
const PRICES = { pro: "price_pro_monthly", api_tier: "price_api_metered" };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let client: ReturnType<typeof connect>;
let db: Db;
let fake: StripeFake;
let server: AppServer;
let billing: Billing;

beforeAll(async () => {
  database = await createTestDatabase("oci_billing_api");
  await runMigrations(database.url);
  client = connect(database.url, { max: 2 });
  db = createDb(client);
  fake = await startStripeFake({ now: Date.parse("2026-11-20T12:00:00Z") / 1000 });
  const stripeEnv = {
    STRIPE_SECRET_KEY: "sk_test_fake",
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_PRICE_PRO: PRICES.pro,
    STRIPE_PRICE_API_TIER: PRICES.api_tier,
    STRIPE_API_BASE: fake.url,
  };
  server = await startAppServer({ DATABASE_URL: database.url, ...stripeEnv });
  const settings = { secretKey: "sk_test_fake", webhookSecret: SECRET, prices: PRICES, meterEventName: "api_requests", apiBase: new URL(fake.url) };
  billing = { settings, stripe: createStripe(settings) };
});

afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await client?.end();
  await database?.drop();
});

const webhook = () => `${server.baseUrl}/api/stripe/webhook`;
const rateLimit = async (key: string) =>
  (await fetch(`${server.baseUrl}/v1/alerts`, { headers: { Authorization: `Bearer ${key}` } })).headers.get("x-ratelimit-limit");

describe("Stripe webhook through the production server", () => {
  it("moves an account to Pro on a signed checkout, once, and refuses forged deliveries", async () => {
    const accountId = await ensureAccount(db, "payer@example.com");
    const key = await createKey(db, accountId);
    expect(await rateLimit(key.key)).toBe("10");

    const { url } = await createCheckoutSession(db, billing, { id: accountId, email: "payer@example.com" }, "pro");
    const { events } = fake.completeCheckout(url.split("/").pop()!);
    const completed = events.find((e) => e.type === "checkout.session.completed")!;

    const forged = fake.sign(completed, "whsec_forged");
    const refused = await fetch(webhook(), { method: "POST", headers: { "Stripe-Signature": forged.signature }, body: forged.payload });
    expect(refused.status).toBe(400);
    expect(await rateLimit(key.key)).toBe("10");

    expect(await fake.deliver(webhook(), completed, SECRET)).toEqual({ status: 200, body: { received: true, plan: "pro" } });
    expect(await rateLimit(key.key)).toBe("60");
    expect(await fake.deliver(webhook(), completed, SECRET)).toEqual({ status: 200, body: { received: true, duplicate: true } });
  });

  it("no longer lets the dashboard switch plans", async () => {
    const res = await fetch(`${server.baseUrl}/api/plan`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ plan: "api_tier" }),
    });
    expect(res.status).toBe(404);
  });
});
