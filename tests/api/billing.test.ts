import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckoutSession } from "@/lib/billing/checkout";
import { type Billing, createStripe } from "@/lib/billing/stripe";
import { type StripeFake, startStripeFake } from "@/lib/billing/test/stripe-fake";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { reportUsage } from "@/worker/billing/meter-reporter";
import { type OwnServer, ownServer, signedIn } from "./own-server";

/**
 * Billing through the production server: a server of its own with Stripe configured and
 * pointed at the loopback fake, receiving Stripe's signed webhooks on its real route.
 */
const SECRET = "whsec_api_test";
const PRICES = { pro: "price_pro_monthly", api_tier: "price_api_metered" };

let fake: StripeFake;
let server: OwnServer;
let billing: Billing;

beforeAll(async () => {
  fake = await startStripeFake({ now: Date.parse("2026-11-20T12:00:00Z") / 1000 });
  const stripeEnv = {
    STRIPE_SECRET_KEY: "sk_test_fake",
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_PRICE_PRO: PRICES.pro,
    STRIPE_PRICE_API_TIER: PRICES.api_tier,
    STRIPE_API_BASE: fake.url,
  };
  server = await ownServer("oci_billing_api", () => stripeEnv);
  const settings = {
    secretKey: "sk_test_fake",
    webhookSecret: SECRET,
    prices: PRICES,
    meterEventName: "api_requests",
    apiBase: new URL(fake.url),
  };
  billing = { settings, stripe: createStripe(settings) };
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const webhook = () => `${server.baseUrl}/api/stripe/webhook`;
const rateLimit = async (key: string) =>
  (await fetch(`${server.baseUrl}/v1/alerts`, { headers: { Authorization: `Bearer ${key}` } })).headers.get(
    "x-ratelimit-limit",
  );

describe("Stripe webhook through the production server", () => {
  it("moves an account to Pro on a signed checkout, once, and refuses forged deliveries", async () => {
    const accountId = await ensureAccount(server.db, "payer@example.com");
    const key = await createKey(server.db, accountId);
    expect(await rateLimit(key.key)).toBe("10");

    const { url } = await createCheckoutSession(
      server.db,
      billing,
      { id: accountId, email: "payer@example.com" },
      "pro",
    );
    const { events } = fake.completeCheckout(url.split("/").pop()!);
    const completed = events.find((e) => e.type === "checkout.session.completed")!;

    const forged = fake.sign(completed, "whsec_forged");
    const refused = await fetch(webhook(), {
      method: "POST",
      headers: { "Stripe-Signature": forged.signature },
      body: forged.payload,
    });
    expect(refused.status).toBe(400);
    expect(await rateLimit(key.key)).toBe("10");

    expect(await fake.deliver(webhook(), completed, SECRET)).toEqual({
      status: 200,
      body: { received: true, plan: "pro" },
    });
    expect(await rateLimit(key.key)).toBe("60");
    expect(await fake.deliver(webhook(), completed, SECRET)).toEqual({
      status: 200,
      body: { received: true, duplicate: true },
    });
  });

  it("bills an API Tier account's dashboard requests like its keys' requests", async () => {
    const { browser, accountId, email } = await signedIn(server);
    const key = await createKey(server.db, accountId);
    const { url } = await createCheckoutSession(server.db, billing, { id: accountId, email }, "api_tier");
    const { subscription, events } = fake.completeCheckout(url.split("/").pop()!);
    for (const e of events) expect((await fake.deliver(webhook(), e, SECRET)).status).toBe(200);
    expect(await rateLimit(key.key)).toBe("1000");

    // Two key requests (one above) and three of the dashboard's metered market reads.
    expect(
      (await fetch(`${server.baseUrl}/v1/tokens?limit=1`, { headers: { Authorization: `Bearer ${key.key}` } })).status,
    ).toBe(200);
    for (let page = 2; page <= 4; page++) {
      const res = await browser.fetch(`/api/tokens?limit=1&page=${page}`);
      expect([res.status, res.headers.get("x-ratelimit-limit")]).toEqual([200, "1000"]);
    }
    await reportUsage(server.db, billing, new Date());
    const billed = [...fake.meterEvents.values()]
      .filter((e) => (e.payload as Record<string, string>).stripe_customer_id === subscription.customer)
      .reduce((sum, e) => sum + Number((e.payload as Record<string, string>).value), 0);
    expect(billed).toBe(5);
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
