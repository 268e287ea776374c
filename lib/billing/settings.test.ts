import { describe, expect, it } from "vitest";
import { billingSettings, planOfPrice } from "./settings";

const env = { STRIPE_METER_EVENT_NAME: "api_requests" } as const;
const full = {
  ...env,
  STRIPE_SECRET_KEY: "sk_test_x",
  STRIPE_WEBHOOK_SECRET: "whsec_x",
  STRIPE_PRICE_PRO: "price_p",
  STRIPE_PRICE_API_TIER: "price_a",
};

describe("billing settings", () => {
  it("are off without STRIPE_SECRET_KEY (the embedded default)", () => {
    expect(billingSettings(env)).toBeNull();
  });

  it("refuse a secret key without the webhook secret and prices, naming what is missing", () => {
    expect(() => billingSettings({ ...env, STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PRICE_PRO: "price_p" })).toThrow(
      "STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_API_TIER are not.",
    );
  });

  it("map Stripe prices to plans, and nothing else", () => {
    const settings = billingSettings({ ...full, STRIPE_API_BASE: "http://127.0.0.1:1234" })!;
    expect(settings.apiBase?.port).toBe("1234");
    expect(planOfPrice(settings, "price_p")).toBe("pro");
    expect(planOfPrice(settings, "price_a")).toBe("api_tier");
    expect(planOfPrice(settings, "price_other")).toBeNull();
  });
});
