import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alerts, stripeEvents } from "@/db/schema";
import { createAlert } from "@/lib/alerts/service";
import { createCheckoutSession } from "./checkout";
import { createPortalSession } from "./portal";
import { type BillingTest, PRICES, startBillingTest, WEBHOOK_SECRET } from "./test/setup";
import { handleStripeWebhook } from "./webhook";

let t: BillingTest;
beforeAll(async () => {
  t = await startBillingTest("billing_webhook_test");
});
afterAll(async () => {
  await t?.close();
});

const retrievals = (subscriptionId: string) =>
  t.fake.requests.filter((r) => r.method === "GET" && r.path === `/v1/subscriptions/${subscriptionId}`).length;

describe("checkout", () => {
  it("completes a Pro checkout: the account becomes Pro from the webhook, not before", async () => {
    const account = await t.newAccount();
    const { subscriptionId, events } = await t.subscribe(account, "pro");
    const session = t.fake.requests.find((r) => r.path === "/v1/checkout/sessions")!;
    expect(session.body).toMatchObject({
      mode: "subscription",
      client_reference_id: account.id,
      line_items: [{ price: PRICES.pro, quantity: "1" }],
    });
    expect(await t.planOf(account.id)).toBe("free");

    const outcomes = await t.deliver(...events);
    expect(outcomes.map((o) => o.status)).toEqual([200, 200, 200]);
    expect(await t.planOf(account.id)).toBe("pro");
    const sub = await t.subscriptionOf(subscriptionId);
    expect(sub).toMatchObject({ accountId: account.id, plan: "pro", status: "active", cancelAt: null });
    expect(sub.currentPeriodEnd!.getTime()).toBe(t.now().getTime() + 30 * 86_400_000);
  });

  it("reuses the account's Stripe customer and refuses a second subscription", async () => {
    const account = await t.newAccount();
    const { events } = await t.subscribe(account, "pro");
    await t.deliver(...events);
    await expect(createCheckoutSession(t.db, t.billing, account, "api_tier")).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const portal = await createPortalSession(t.db, t.billing, account.id);
    expect(portal.url).toMatch(/\/portal\/bps_/);
    const creates = t.fake.requests.filter(
      (r) =>
        r.path === "/v1/customers" &&
        r.body.metadata &&
        (r.body.metadata as Record<string, string>).account_id === account.id,
    );
    expect(creates).toHaveLength(1);
  });

  it("has no portal before the first checkout", async () => {
    const account = await t.newAccount();
    await expect(createPortalSession(t.db, t.billing, account.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("subscription lifecycle", () => {
  it("renews: the plan stays and the period moves on a month", async () => {
    const account = await t.newAccount();
    const { subscriptionId, events } = await t.subscribe(account, "pro");
    await t.deliver(...events);
    const before = (await t.subscriptionOf(subscriptionId)).currentPeriodEnd!;
    t.fake.advance(30 * 86_400);
    await t.deliver(...t.fake.renew(subscriptionId));
    expect(await t.planOf(account.id)).toBe("pro");
    expect((await t.subscriptionOf(subscriptionId)).currentPeriodEnd!.getTime()).toBe(
      before.getTime() + 30 * 86_400_000,
    );
  });

  it("a failed payment keeps the plan while Stripe retries; Free once the subscription ends", async () => {
    const account = await t.newAccount();
    const { subscriptionId, events } = await t.subscribe(account, "pro");
    await t.deliver(...events);
    t.fake.advance(30 * 86_400);
    await t.deliver(...t.fake.failPayment(subscriptionId));
    expect(await t.planOf(account.id)).toBe("pro");
    expect((await t.subscriptionOf(subscriptionId)).status).toBe("past_due");

    t.fake.advance(14 * 86_400);
    await t.deliver(...t.fake.end(subscriptionId));
    expect(await t.planOf(account.id)).toBe("free");
  });

  it("a cancellation keeps Pro to the period end, then Free with alerts beyond Free paused, not deleted", async () => {
    const account = await t.newAccount();
    const { subscriptionId, events } = await t.subscribe(account, "pro");
    await t.deliver(...events);
    const owner = { keyId: account.keyId, accountId: account.id };
    const conditions = { min_liquidity_usd: 1000 };
    for (let i = 1; i <= 5; i++)
      await createAlert(t.db, owner, { name: `email ${i}`, conditions, notification_channel: "email" });
    await createAlert(t.db, owner, {
      name: "hook",
      conditions,
      notification_channel: "webhook",
      webhook_url: "https://hooks.example.com/x",
    });
    // Creation order made explicit, so "the oldest stay active" does not rest on clock resolution.
    await t.db.execute(
      sql`update alerts
             set created_at = ${t.now().toISOString()}::timestamptz
                              + (substring(name from '[0-9]+$')::int || ' minutes')::interval
           where account_id = ${account.id} and name like 'email %'`,
    );

    await t.deliver(...t.fake.cancelAtPeriodEnd(subscriptionId));
    expect(await t.planOf(account.id)).toBe("pro");
    const sub = await t.subscriptionOf(subscriptionId);
    expect(sub.cancelAt).toEqual(sub.currentPeriodEnd);

    t.fake.advance(30 * 86_400);
    await t.deliver(...t.fake.end(subscriptionId));
    expect(await t.planOf(account.id)).toBe("free");
    const rows = await t.db
      .select({ name: alerts.name, status: alerts.status })
      .from(alerts)
      .where(eq(alerts.accountId, account.id))
      .orderBy(alerts.name);
    expect(rows).toEqual([
      { name: "email 1", status: "active" },
      { name: "email 2", status: "active" },
      { name: "email 3", status: "active" },
      { name: "email 4", status: "paused" },
      { name: "email 5", status: "paused" },
      { name: "hook", status: "paused" },
    ]);
  });
});

describe("delivery", () => {
  it("a replayed event does nothing, even when Stripe's state has moved on", async () => {
    const account = await t.newAccount();
    const { subscriptionId, events } = await t.subscribe(account, "pro");
    await t.deliver(...events);
    const fetched = retrievals(subscriptionId);
    t.fake.end(subscriptionId); // Stripe ends it, but this event is never delivered.
    const replays = await t.deliver(events[0], events[1]);
    expect(replays.map((r) => r.body)).toEqual([
      { received: true, duplicate: true },
      { received: true, duplicate: true },
    ]);
    expect(retrievals(subscriptionId)).toBe(fetched);
    expect(await t.planOf(account.id)).toBe("pro");
  });

  it("events out of order apply Stripe's present state: a late 'created' cannot undo the end", async () => {
    const account = await t.newAccount();
    const { subscriptionId, events } = await t.subscribe(account, "pro");
    const [created, completed, paid] = events;
    const ended = t.fake.end(subscriptionId);
    await t.deliver(...ended);
    expect(await t.planOf(account.id)).toBe("free");
    await t.deliver(paid, completed, created);
    expect(await t.planOf(account.id)).toBe("free");
    expect((await t.subscriptionOf(subscriptionId)).status).toBe("canceled");
  });

  it("a stale update delivered after the renewal leaves the renewed period", async () => {
    const account = await t.newAccount();
    const { subscriptionId, events } = await t.subscribe(account, "pro");
    await t.deliver(...events);
    const stale = { ...structuredClone(events[0]), id: "evt_stale_update", type: "customer.subscription.updated" };
    t.fake.advance(30 * 86_400);
    await t.deliver(...t.fake.renew(subscriptionId));
    await t.deliver(stale);
    expect((await t.subscriptionOf(subscriptionId)).currentPeriodEnd!.getTime()).toBe(
      t.now().getTime() + 30 * 86_400_000,
    );
    expect(await t.planOf(account.id)).toBe("pro");
  });

  it("refuses a forged signature, a tampered body and a missing signature with 400, storing nothing", async () => {
    const account = await t.newAccount();
    const { events } = await t.subscribe(account, "pro");
    const [created] = events;
    const forged = t.fake.sign(created, "whsec_not_the_secret");
    const signed = t.fake.sign(created, WEBHOOK_SECRET);
    const tampered = signed.payload.replace('"status":"active"', '"status":"trialing"');
    expect(tampered).not.toBe(signed.payload);
    for (const [payload, signature] of [
      [forged.payload, forged.signature],
      [tampered, signed.signature],
      [signed.payload, null],
    ] as const) {
      const outcome = await handleStripeWebhook(t.db, t.billing, payload, signature, t.now());
      expect(outcome).toEqual({ status: 400, body: { error: "Invalid Stripe signature." } });
    }
    expect(await t.db.select().from(stripeEvents).where(eq(stripeEvents.id, created.id))).toEqual([]);
    expect(await t.planOf(account.id)).toBe("free");
  });

  it("acknowledges events about other customers and other event types without acting", async () => {
    const account = await t.newAccount();
    const { subscriptionId, events } = await t.subscribe(account, "pro");
    const foreign = structuredClone(events[0]);
    foreign.id = "evt_foreign_customer";
    foreign.data.object.customer = "cus_not_ours";
    const other = { ...structuredClone(events[0]), id: "evt_other_type", type: "customer.created" };
    expect((await t.deliver(foreign, other)).map((o) => o.body)).toEqual([
      { received: true, ignored: "customer" },
      { received: true, ignored: "event type" },
    ]);
    expect(retrievals(subscriptionId)).toBe(0);
    expect(await t.planOf(account.id)).toBe("free");
  });

  it("a failure while applying rolls the event back, so Stripe's redelivery applies it", async () => {
    const account = await t.newAccount();
    const { subscriptionId, events } = await t.subscribe(account, "pro");
    t.fake.failNext(`/v1/subscriptions/${subscriptionId}`, { status: 500 }, 3);
    await expect(t.deliver(events[0])).rejects.toThrow();
    expect(await t.planOf(account.id)).toBe("free");
    expect((await t.deliver(events[0]))[0].body).toEqual({ received: true, plan: "pro" });
  });
});
