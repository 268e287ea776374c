import type { PlanLimits } from "@/lib/queries/plans";

const wholeUsd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
/** $49, $0.40: cents only when there are some. */
const dollars = (cents: number) => (cents % 100 === 0 ? wholeUsd : usd).format(cents / 100);

/** A plan's price as the plans table states it: "Free", "$49 / month", "$0.40 per 1,000 requests". */
export function PlanPrice({ plan }: { plan: PlanLimits }) {
  const parts = [
    plan.monthlyPriceCents !== null &&
      (plan.monthlyPriceCents === 0 ? "Free" : `${dollars(plan.monthlyPriceCents)} / month`),
    plan.perThousandRequestsCents !== null && `${dollars(plan.perThousandRequestsCents)} per 1,000 requests`,
  ].filter(Boolean);
  return (
    <p className="mb-3 text-lg font-semibold tabular-nums" data-testid={`price-${plan.id}`}>
      {parts.length ? parts.join(" + ") : "Custom"}
    </p>
  );
}
