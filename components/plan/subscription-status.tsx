import type { BillingSummary } from "@/lib/billing/summary";

const day = (d: Date) => d.toISOString().slice(0, 10);

/** What the subscription will do next, in one sentence; nothing without one. */
export function SubscriptionStatus({ subscription }: { subscription: BillingSummary["subscription"] }) {
  if (!subscription?.entitled) return null;
  const { status, currentPeriodEnd, cancelAt } = subscription;
  let text: string;
  if (status === "past_due")
    text =
      "The last payment failed: update the card with Manage billing, " +
      "or the plan falls back to Free when Stripe stops retrying.";
  else if (cancelAt)
    text =
      `Cancelled: the plan stays until ${day(cancelAt)}, then the account moves to Free ` +
      "(alerts beyond its limits are paused, not deleted).";
  else text = currentPeriodEnd ? `Renews on ${day(currentPeriodEnd)}.` : "Active.";
  return (
    <p
      className={status === "past_due" ? "text-amber-800 dark:text-amber-300" : undefined}
      data-testid="subscription-status"
    >
      {text}
    </p>
  );
}
