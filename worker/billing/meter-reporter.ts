import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, billingCustomers, billingMeterReports } from "@/db/schema";
import { enqueueUnreportedUsage, lockAccount } from "@/lib/billing/metering";
import type { Billing } from "@/lib/billing/stripe";
import { log } from "@/lib/log";
import { sleep } from "../sleep";

/** Pending rows sent per pass; the rest wait for the next one. */
const BATCH = 500;

export type ReportPass = { enqueued: number; sent: number; failed: number };

/**
 * One pass of API Tier metering: each API Tier account with a Stripe customer writes its
 * not-yet-reported requests as pending rows (with the account locked, so two workers never
 * count the same requests twice), then pending rows go to Stripe as meter events. A row is
 * marked reported only after Stripe accepted it; one sent again after a crash carries the same
 * identifier and idempotency key, and Stripe counts it once.
 */
export async function reportUsage(db: Db, billing: Billing, now: Date): Promise<ReportPass> {
  const pass: ReportPass = { enqueued: 0, sent: 0, failed: 0 };
  const metered = await db
    .select({ id: accounts.id })
    .from(accounts)
    .innerJoin(billingCustomers, eq(billingCustomers.accountId, accounts.id))
    .where(eq(accounts.plan, "api_tier"));
  for (const { id } of metered) {
    pass.enqueued += await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      await lockAccount(tx, id);
      // The plan may have changed since the list was read; leaving API Tier enqueues its own last rows.
      const [account] = await tx.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, id));
      return account?.plan === "api_tier" ? enqueueUnreportedUsage(tx, id, now) : 0;
    });
  }

  const pending = await db
    .select({ identifier: billingMeterReports.identifier })
    .from(billingMeterReports)
    .where(and(isNull(billingMeterReports.reportedAt), eq(billingMeterReports.kind, "usage")))
    .orderBy(asc(billingMeterReports.createdAt))
    .limit(BATCH);
  for (const { identifier } of pending) {
    const outcome = await sendOne(db, billing, identifier);
    if (outcome === "sent") pass.sent++;
    if (outcome === "failed") pass.failed++;
  }
  return pass;
}

/** Sends one pending row, claimed so that two workers do not send it at once. */
async function sendOne(db: Db, billing: Billing, identifier: string): Promise<"sent" | "failed" | "skipped"> {
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const [row] = await tx
      .select({
        value: billingMeterReports.value,
        eventTime: billingMeterReports.eventTime,
        customer: billingCustomers.stripeCustomerId,
      })
      .from(billingMeterReports)
      .innerJoin(billingCustomers, eq(billingCustomers.accountId, billingMeterReports.accountId))
      .where(and(eq(billingMeterReports.identifier, identifier), isNull(billingMeterReports.reportedAt)))
      .for("update", { of: billingMeterReports, skipLocked: true });
    if (!row) return "skipped";
    try {
      await billing.stripe.billing.meterEvents.create(
        {
          event_name: billing.settings.meterEventName,
          identifier,
          timestamp: Math.floor(row.eventTime.getTime() / 1000),
          payload: { stripe_customer_id: row.customer, value: String(row.value) },
        },
        { idempotencyKey: `meter-${identifier}` },
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.warn("meter event not accepted; retried next pass", { identifier, error: message });
      await tx
        .update(billingMeterReports)
        .set({ lastError: message.slice(0, 500) })
        .where(eq(billingMeterReports.identifier, identifier));
      return "failed";
    }
    await tx
      .update(billingMeterReports)
      .set({ reportedAt: sql`now()`, lastError: null })
      .where(eq(billingMeterReports.identifier, identifier));
    return "sent";
  });
}

/** Reports API Tier usage every `intervalMs` until `signal` aborts; a failed pass is logged and retried. */
export async function runMeterReporter(
  db: Db,
  billing: Billing,
  options: { signal?: AbortSignal; intervalMs?: number } = {},
): Promise<void> {
  const { signal, intervalMs = 60_000 } = options;
  while (!signal?.aborted) {
    try {
      const pass = await reportUsage(db, billing, new Date());
      if (pass.enqueued || pass.sent || pass.failed) log.info("metered usage reported to stripe", pass);
    } catch (err) {
      log.error("metering pass failed", { error: err instanceof Error ? err.message : String(err) });
    }
    await sleep(intervalMs, signal);
  }
}
