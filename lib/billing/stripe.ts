import Stripe from "stripe";
import { ApiError } from "@/lib/api/errors";
import { type BillingSettings, billingSettings } from "./settings";

export type Billing = { settings: BillingSettings; stripe: Stripe };

/** A Stripe client on the API version this stripe-node release pins, at `apiBase` when given. */
export function createStripe(settings: BillingSettings): Stripe {
  const base = settings.apiBase;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base && {
      host: base.hostname,
      port: base.port || (base.protocol === "https:" ? 443 : 80),
      protocol: base.protocol === "https:" ? "https" : "http",
    }),
  });
}

const globalForBilling = globalThis as unknown as { __billing?: Billing | null };

/** This process's billing (settings and one client), or null when Stripe is not configured. */
export function getBilling(): Billing | null {
  if (globalForBilling.__billing === undefined) {
    const settings = billingSettings();
    globalForBilling.__billing = settings && { settings, stripe: createStripe(settings) };
  }
  return globalForBilling.__billing;
}

/** The id of an expandable Stripe field (an id, or the object when expanded). */
export function idOf(field: string | { id: string } | null | undefined): string | null {
  if (!field) return null;
  return typeof field === "string" ? field : field.id;
}

/** Billing for a dashboard route; without Stripe configured the route refuses, saying why. */
export function requireBilling(): Billing {
  const billing = getBilling();
  if (!billing)
    throw new ApiError("FORBIDDEN", "Billing is not configured on this server: plans change through the keys CLI.");
  return billing;
}
