import { type Config, config } from "@/lib/config";
import type { Plan } from "@/lib/domain/vocab";

export type PaidPlan = Exclude<Plan, "free">;
export const PAID_PLANS = ["pro", "api_tier"] as const satisfies readonly PaidPlan[];

export type BillingSettings = {
  secretKey: string;
  webhookSecret: string;
  /** The Stripe price each paid plan is bought with (Pro: flat monthly; API Tier: metered). */
  prices: Record<PaidPlan, string>;
  meterEventName: string;
  /** Another Stripe-compatible endpoint (tests), or Stripe's own. */
  apiBase: URL | null;
};

type BillingEnv = Pick<
  Config,
  | "STRIPE_SECRET_KEY"
  | "STRIPE_WEBHOOK_SECRET"
  | "STRIPE_PRICE_PRO"
  | "STRIPE_PRICE_API_TIER"
  | "STRIPE_METER_EVENT_NAME"
  | "STRIPE_API_BASE"
>;

/**
 * Billing as configured, or null without STRIPE_SECRET_KEY (plans then change only through the
 * keys CLI). A secret key without the rest is a configuration error, not a quiet half-billing.
 */
export function billingSettings(env: BillingEnv = config): BillingSettings | null {
  if (!env.STRIPE_SECRET_KEY) return null;
  const missing = (["STRIPE_WEBHOOK_SECRET", "STRIPE_PRICE_PRO", "STRIPE_PRICE_API_TIER"] as const).filter(
    (name) => !env[name],
  );
  if (missing.length)
    throw new Error(`STRIPE_SECRET_KEY is set but ${missing.join(", ")} ${missing.length > 1 ? "are" : "is"} not.`);
  return {
    secretKey: env.STRIPE_SECRET_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
    prices: { pro: env.STRIPE_PRICE_PRO!, api_tier: env.STRIPE_PRICE_API_TIER! },
    meterEventName: env.STRIPE_METER_EVENT_NAME,
    apiBase: env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null,
  };
}

/** The paid plan a Stripe price buys, or null for a price that is not ours. */
export function planOfPrice(settings: BillingSettings, priceId: string): PaidPlan | null {
  return PAID_PLANS.find((plan) => settings.prices[plan] === priceId) ?? null;
}
