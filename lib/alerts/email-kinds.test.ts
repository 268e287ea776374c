import { describe, expect, it } from "vitest";
import { renderAlertEmail } from "./email";
import type { AlertNotification } from "./payload";

const W = `0x${"12".repeat(20)}`;
const T = `0x${"ab".repeat(20)}`;

const wallet: AlertNotification = {
  type: "alert.triggered",
  alert: {
    id: "alrt_1",
    name: "whale",
    kind: "wallet",
    conditions: { wallet_address: W, actions: ["buy", "receive"] },
  },
  triggered_at: "2031-01-01T00:00:00.000Z",
  matches: [],
  total_matches: 0,
  events: [
    {
      id: "4200000003",
      type: "buy",
      wallet_address: W,
      from_address: null,
      token_address: T,
      name: "<b>Pepe</b>",
      symbol: "PEPE",
      amount_usd: 1234.5,
      tx_hash: `0x${"f".repeat(64)}`,
      block_number: 42,
      timestamp: "2031-01-01T00:00:00.000Z",
    },
  ],
  total_events: 3,
};

describe("alert email of the other kinds", () => {
  it("lists a wallet alert's events, with the wallet's action, the token and its value", () => {
    const email = renderAlertEmail(wallet, "https://intel.example");
    expect(email.subject).toBe('Alert "whale": 3 new events');
    expect(email.text).toContain(`- Wallet 0x1212…1212 buys, receives (any token)`);
    expect(email.text).toContain(`1. 0x1212…1212 bought PEPE (<b>Pepe</b>) for $1,234.5 ${T}`);
    expect(email.text).toContain(`https://intel.example/tokens/${T}`);
    expect(email.text).toContain("…and 2 more.");
    expect(email.html).not.toContain("<b>Pepe");
  });

  it("says a price alert's condition and the price that met it", () => {
    const price: AlertNotification = {
      ...wallet,
      alert: {
        id: "alrt_2",
        name: "level",
        kind: "price",
        conditions: { token_address: T, crosses: "below", price_usd: 0.000012 },
      },
      matches: [
        {
          address: T,
          name: "Pepe",
          symbol: "PEPE",
          matched_at: "2031-01-01T00:00:00.000Z",
          values: { price_usd: 0.0000115 },
        },
      ],
      total_matches: 1,
      events: undefined,
      total_events: undefined,
    };
    const email = renderAlertEmail(price, "https://intel.example");
    expect(email.subject).toBe('Alert "level": its price condition is met');
    expect(email.text).toContain("- Price of 0xabab…abab reaches $0.000012 or below");
    expect(email.text).toContain("Price $0.0000115");
  });
});
