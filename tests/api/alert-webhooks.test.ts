import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changePlan } from "@/lib/billing/plan-change";
import { startWebhookReceiver } from "@/worker/alerts/test/fake-servers";
import { type ApiResponse, expectError } from "./helpers";
import { type OwnServer, ownServer, signedIn } from "./own-server";

/**
 * What the dashboard shows about webhooks and plans, on a server of this file's own: no billing,
 * not the embedded defaults, receivers on loopback allowed (WEBHOOK_ALLOW_PRIVATE, as in tests).
 */
let server: OwnServer;
beforeAll(async () => {
  server = await ownServer("oci_webhook_ui", () => ({}));
});
afterAll(async () => {
  await server?.close();
});

const asResponse = async (res: Response): Promise<ApiResponse> => {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
};
const write = (method: string, body?: unknown) => ({
  method,
  headers: { origin: server.baseUrl.replace("127.0.0.1", "localhost"), "content-type": "application/json" },
  body: body === undefined ? undefined : JSON.stringify(body),
});

/** A signed-in Pro account with one alert delivered by webhook to `url` (or by email). */
async function proWithAlert(url: string | null) {
  const session = await signedIn(server);
  await changePlan(server.db, session.accountId, "pro", new Date());
  const alert = {
    name: "hook",
    conditions: { min_liquidity_usd: 1000 },
    ...(url ? { notification_channel: "webhook", webhook_url: url } : {}),
  };
  const made = await session.browser.fetch("/api/alerts", write("POST", { alert })).then(asResponse);
  expect(made.status).toBe(200);
  return { ...session, alert: made.body as { id: string; webhook_secret?: string } };
}

describe("a webhook alert's test event", () => {
  it("reaches the receiver signed with the alert's secret, and says how it answered", async () => {
    const secrets = new Map<string, string>();
    const receiver = await startWebhookReceiver(secrets);
    const refusing = await startWebhookReceiver(secrets, { rate: 0 }, 500);
    try {
      const { browser, alert } = await proWithAlert(`${receiver.url}/in`);
      secrets.set(alert.id, alert.webhook_secret!);
      const sent = await browser.fetch(`/api/alerts/${alert.id}/test-event`, write("POST")).then(asResponse);
      expect(sent.body).toEqual({
        delivered: true,
        message: "The test event was delivered: your webhook answered 2xx.",
      });
      expect(receiver.all.map((d) => [d.verified, JSON.parse(d.body).type, JSON.parse(d.body).alert.id])).toEqual([
        [true, "alert.test", alert.id],
      ]);

      const other = await proWithAlert(`${refusing.url}/in`);
      secrets.set(other.alert.id, other.alert.webhook_secret!);
      const refused = await other.browser
        .fetch(`/api/alerts/${other.alert.id}/test-event`, write("POST"))
        .then(asResponse);
      expect(refused.body).toEqual({
        delivered: false,
        message:
          "The test event was not delivered. Your webhook answered HTTP 500; it must answer 2xx. " +
          "Check the endpoint's logs.",
      });
      // Another account's alert is not found; nothing is sent.
      expectError(
        await other.browser.fetch(`/api/alerts/${alert.id}/test-event`, write("POST")).then(asResponse),
        404,
        "NOT_FOUND",
      );
      expect(receiver.all).toHaveLength(1);
    } finally {
      await receiver.close();
      await refusing.close();
    }
  });

  it("is for webhook alerts only, said in words", async () => {
    const { browser, alert } = await proWithAlert(null);
    const res = await browser.fetch(`/api/alerts/${alert.id}/test-event`, write("POST")).then(asResponse);
    expectError(res, 400, "INVALID_PARAMS", "notification_channel");
    expect(res.body.error.message).toBe("Only an alert delivered by webhook takes a test event.");
  });
});

describe("the alerts page", () => {
  it("shows the account its failing webhook targets, and why", async () => {
    const { browser, alert } = await proWithAlert("https://hooks.tarpit.example.com:8443/in");
    // Saved before credentials in URLs were refused: delivered with them, never shown.
    await server.sql`update alerts set webhook_url = 'https://user:pw@hooks.tarpit.example.com:8443/in'
      where id = ${alert.id}`;
    await server.sql`insert into notifications
      (alert_id, channel, recipient, idempotency_key, payload, attempts, last_error)
      values (${alert.id}, 'webhook', 'https://user:pw@hooks.tarpit.example.com:8443/in', ${`ntf_${alert.id}`}, '{}', 3,
        'Your webhook did not answer within 10 s.')`;
    const page = await browser.fetch("/alerts").then((r) => r.text());
    expect(page).toContain("Failing webhook targets");
    expect(page).toContain("example.com");
    expect(page).toContain("Your webhook did not answer within 10 s.");
    expect(page).not.toContain("user:pw");
  });
});

describe("without billing, off the embedded defaults", () => {
  it("the plan page says the operator changes plans, without the operator's command", async () => {
    const { browser } = await signedIn(server);
    const page = await browser.fetch("/plan").then((r) => r.text());
    expect(page).toContain("plans are changed by its operator");
    expect(page).not.toContain("set-plan");
  });
});

describe("framing", () => {
  it.each(["/", "/tokens", "/signin", "/docs", "/v1/health"])("of %s by another site is refused", async (path) => {
    const res = await fetch(`${server.baseUrl}${path}`, { redirect: "manual" });
    await res.text();
    expect([res.headers.get("x-frame-options"), res.headers.get("content-security-policy")]).toEqual([
      "DENY",
      "frame-ancestors 'none'",
    ]);
  });
});
