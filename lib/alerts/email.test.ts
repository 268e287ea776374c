import { describe, expect, it } from "vitest";
import { renderAlertEmail } from "./email";
import type { AlertNotification } from "./payload";

const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";

const notification: AlertNotification = {
  type: "alert.triggered",
  alert: {
    id: "alrt_1",
    name: "Fresh <liquid>\nlaunches",
    conditions: { min_liquidity_usd: 10_000, max_age_hours: 24, exclude_flags: ["wash_trading"] },
  },
  triggered_at: "2031-01-01T00:00:00.000Z",
  matches: [
    {
      address: A,
      name: '<img src=x onerror="alert(1)">',
      symbol: "EVIL",
      matched_at: "2031-01-01T00:00:00.000Z",
      values: { liquidity_usd: 12_345.678, age_hours: 3.25, risk_flags: [] },
    },
    {
      address: B,
      name: "Bee",
      symbol: "BEE",
      matched_at: "2031-01-01T00:00:00.000Z",
      values: { liquidity_usd: 99_000, age_hours: 1, risk_flags: ["sybil_cluster"] },
    },
  ],
  total_matches: 5,
};

describe("alert email", () => {
  const email = renderAlertEmail(notification, "https://intel.example");

  it("names the alert and its conditions, in a one-line subject", () => {
    expect(email.subject).toBe('Alert "Fresh <liquid> launches": 5 new matching tokens');
    for (const body of [email.text, email.html]) {
      expect(body).toContain("Minimum liquidity in USD: $10,000");
      expect(body).toContain("Maximum token age in hours: 24 h");
      expect(body).toContain("Excluding risk flags: wash_trading");
    }
  });

  it("lists each new match with the numbers that made it match and a dashboard link", () => {
    expect(email.text).toContain(`1. EVIL (<img src=x onerror="alert(1)">) ${A}`);
    expect(email.text).toContain("Liquidity $12,345.68 · Age 3.25 h · Risk flags none");
    expect(email.text).toContain(`https://intel.example/tokens/${B}`);
    expect(email.text).toContain("Risk flags sybil_cluster");
    expect(email.html).toContain(`<a href="https://intel.example/tokens/${A}">`);
    expect(email.text).toContain("…and 3 more.");
    expect(email.text).toContain("Manage your alerts: https://intel.example/alerts");
    expect(email.html).toContain('href="https://intel.example/alerts"');
  });

  it("escapes on-chain names and alert names in HTML", () => {
    expect(email.html).not.toContain("<img");
    expect(email.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(email.html).toContain("Fresh &lt;liquid&gt; launches");
  });
});
