import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys, billingMeterReports } from "@/db/schema";
import { setKeyLimits } from "@/lib/billing/contract";
import { monthlyUsage } from "@/lib/billing/metering";
import { changePlan } from "@/lib/billing/plan-change";
import { type BillingTest, setUsage, startBillingTest } from "@/lib/billing/test/setup";
import { reportUsage } from "./meter-reporter";

let t: BillingTest;
beforeAll(async () => {
  t = await startBillingTest("billing_meter_test");
});
afterAll(async () => {
  await t?.close();
});

const DAY = 86_400;
const METER_PATH = "/v1/billing/meter_events";

/** What Stripe has counted for a customer: each identifier once. */
function billed(customer: string) {
  return [...t.fake.meterEvents.values()]
    .filter((e) => (e.payload as Record<string, string>).stripe_customer_id === customer)
    .reduce((sum, e) => sum + Number((e.payload as Record<string, string>).value), 0);
}

describe("API Tier metering", () => {
  it("reports each account's unreported requests once, through crashes, concurrent workers, plan end", async () => {
    const account = await t.newAccount();
    const day0 = "2026-11-19"; // START is 2026-11-20 12:00 UTC
    const day1 = "2026-11-20";
    const day2 = "2026-11-21";
    await setUsage(t.db, account.keyId, day0, 500);
    await setUsage(t.db, account.keyId, day1, 40);
    const { subscriptionId, events } = await t.subscribe(account, "api_tier");
    const session = t.fake.requests.find(
      (r) => r.path === "/v1/checkout/sessions" && r.body.client_reference_id === account.id,
    )!;
    expect(session.body.line_items).toEqual([{ price: "price_api_metered" }]);
    await t.deliver(...events);
    expect(await t.planOf(account.id)).toBe("api_tier");
    const customer = t.fake.subscription(subscriptionId).customer;

    // Requests made before the plan started (on Free) are never billed.
    await setUsage(t.db, account.keyId, day1, 100);
    expect(await reportUsage(t.db, t.billing, t.now())).toEqual({ enqueued: 1, sent: 1, failed: 0 });
    const first = t.fake.meterEvents.get(`${account.id}:${day1}:100`)!;
    expect(first).toMatchObject({
      event_name: "api_requests",
      payload: { stripe_customer_id: customer, value: "60" },
      timestamp: t.now().getTime() / 1000,
    });
    expect(t.fake.requests.find((r) => r.path === METER_PATH)!.idempotencyKey).toBe(`meter-${account.id}:${day1}:100`);
    expect(await reportUsage(t.db, t.billing, t.now())).toEqual({ enqueued: 0, sent: 0, failed: 0 });

    // The next day: the rest of yesterday is stamped on its last second, today on now.
    t.fake.advance(DAY);
    await setUsage(t.db, account.keyId, day1, 130);
    await setUsage(t.db, account.keyId, day2, 25);
    expect(await reportUsage(t.db, t.billing, t.now())).toEqual({ enqueued: 2, sent: 2, failed: 0 });
    expect(t.fake.meterEvents.get(`${account.id}:${day1}:130`)).toMatchObject({
      payload: { value: "30" },
      timestamp: Date.parse("2026-11-20T23:59:59Z") / 1000,
    });
    expect(t.fake.meterEvents.get(`${account.id}:${day2}:25`)).toMatchObject({ payload: { value: "25" } });
    expect(billed(customer)).toBe(130 - 40 + 25);

    // Stripe takes the event but the answer is lost: the row stays pending, and the resend counts once.
    await setUsage(t.db, account.keyId, day2, 70);
    t.fake.failNext(METER_PATH, { lostResponse: true }, 3);
    expect(await reportUsage(t.db, t.billing, t.now())).toEqual({ enqueued: 1, sent: 0, failed: 1 });
    const [pending] = await t.db
      .select()
      .from(billingMeterReports)
      .where(eq(billingMeterReports.identifier, `${account.id}:${day2}:70`));
    expect(pending).toMatchObject({ reportedAt: null, value: 45 });
    expect(pending.lastError).toBeTruthy();
    expect(billed(customer)).toBe(160);
    expect(await reportUsage(t.db, t.billing, t.now())).toEqual({ enqueued: 0, sent: 1, failed: 0 });
    expect(billed(customer)).toBe(160);

    // Two workers at once: each request is still reported once.
    await setUsage(t.db, account.keyId, day2, 80);
    const passes = await Promise.all([reportUsage(t.db, t.billing, t.now()), reportUsage(t.db, t.billing, t.now())]);
    expect(passes.reduce((n, p) => n + p.enqueued, 0)).toBe(1);
    expect(billed(customer)).toBe(170);

    // Leaving API Tier reports its last requests and drops the keys' own limits; later ones are not metered.
    await setKeyLimits(t.db, account.id, account.keyId, { ratePerMinute: 500, ratePerDay: 5000 });
    await setUsage(t.db, account.keyId, day2, 90);
    await t.deliver(...t.fake.end(subscriptionId));
    expect(await t.planOf(account.id)).toBe("free");
    const [key] = await t.db
      .select({ perMinute: apiKeys.ratePerMinute, perDay: apiKeys.ratePerDay })
      .from(apiKeys)
      .where(eq(apiKeys.id, account.keyId));
    expect(key).toEqual({ perMinute: null, perDay: null });
    await setUsage(t.db, account.keyId, day2, 200);
    expect(await reportUsage(t.db, t.billing, t.now())).toEqual({ enqueued: 0, sent: 1, failed: 0 });
    expect(billed(customer)).toBe(180);

    expect(await monthlyUsage(t.db, account.id, t.now())).toEqual({
      month: "2026-11-01",
      requests: 500 + 130 + 200,
      reported: 180,
      pending: 0,
    });
  });

  it("does not meter API Tier accounts without a Stripe customer (plans set from the keys CLI)", async () => {
    const account = await t.newAccount();
    await changePlan(t.db, account.id, "api_tier", t.now());
    await setUsage(t.db, account.keyId, "2026-11-21", 10);
    const before = t.fake.meterEvents.size;
    await reportUsage(t.db, t.billing, t.now());
    expect(t.fake.meterEvents.size).toBe(before);
    expect(await t.db.select().from(billingMeterReports).where(eq(billingMeterReports.accountId, account.id))).toEqual(
      [],
    );
  });
});
