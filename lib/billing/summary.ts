import { desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { billingSubscriptions } from "@/db/schema";
import { customerOf } from "./customers";
import { ENTITLED_STATUSES } from "./subscriptions";

export type BillingSummary = {
  /** The account has a Stripe customer: the billing portal has something to show. */
  hasCustomer: boolean;
  /** The subscription that decides the plan (an entitled one first), as Stripe last stated it. */
  subscription: {
    plan: string;
    status: string;
    entitled: boolean;
    currentPeriodEnd: Date | null;
    cancelAt: Date | null;
  } | null;
};

export async function billingSummary(db: Db, accountId: string): Promise<BillingSummary> {
  const [hasCustomer, subs] = await Promise.all([
    customerOf(db, accountId).then((id) => id !== null),
    db
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.accountId, accountId))
      .orderBy(desc(billingSubscriptions.updatedAt)),
  ]);
  const withEntitlement = subs.map((s) => ({ ...s, entitled: ENTITLED_STATUSES.includes(s.status) }));
  const sub = withEntitlement.find((s) => s.entitled) ?? withEntitlement[0];
  return {
    hasCustomer,
    subscription: sub
      ? {
          plan: sub.plan,
          status: sub.status,
          entitled: sub.entitled,
          currentPeriodEnd: sub.currentPeriodEnd,
          cancelAt: sub.cancelAt,
        }
      : null,
  };
}
