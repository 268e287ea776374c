import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resendTransport } from "@/lib/alerts/email";
import { HostBreaker } from "@/lib/alerts/host-breaker";
import { WEBHOOK_ERRORS, webhookTransport } from "@/lib/alerts/webhook";
import { changePlan } from "@/lib/billing/plan-change";
import { failingWebhookTargets } from "@/lib/queries/failing-webhooks";
import { AlertEvaluator } from "./evaluate";
import { deliverDue, HOST_PAUSED, runOutboxSender } from "./outbox";
import { startFakeResend, startWebhookReceiver } from "./test/fake-servers";
import {
  alertsDatabase,
  newAddress,
  newAlert,
  newOwner,
  notificationsOf,
  type Owner,
  setToken,
  T0,
} from "./test/fixtures";

/**
 * Nobody's notifications wait on anybody else's receiver: email and webhooks are lanes apart,
 * accounts take turns in a claim, and a webhook host that keeps failing is put off by a circuit
 * breaker. Receivers are real loopback servers; the tarpit accepts requests and never answers.
 */
let t: Awaited<ReturnType<typeof alertsDatabase>>;
beforeAll(async () => {
  t = await alertsDatabase();
});
beforeEach(() => t.reset());
afterAll(async () => {
  await t?.close();
});

/** A webhook receiver that reads each request and never answers (until closed). */
async function startTarpit() {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("data", (chunk) => (requests += (chunk.toString().match(/^POST /gm) ?? []).length));
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests: () => requests,
    close: () => new Promise<void>((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))),
  };
}

const CONDITIONS = { min_liquidity_usd: 1_000 };
const emailVia = (baseUrl: string) =>
  resendTransport({ apiKey: "re_test", baseUrl, from: "Alerts <alerts@example.com>", timeoutMs: 2_000 });
const fast = { backoffMs: 5, maxBackoffMs: 20, appUrl: "https://intel.example" };

/** `count` alerts of `owner`, all matching one new token, evaluated: one notification each. */
async function fire(
  owner: Owner,
  count: number,
  extra: { notification_channel?: "email" | "webhook"; webhook_url?: string } = {},
) {
  for (let i = 0; i < count; i++) await newAlert(t.db, owner, CONDITIONS, extra);
  await setToken(t.sql, newAddress(), { liquidityUsd: 5_000 });
  await new AlertEvaluator().evaluate(t.sql, T0);
}

async function until(condition: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 3_000; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never happened: ${what}`);
}

describe("alert delivery isolation", { timeout: 60_000 }, () => {
  it("sends email while webhooks hang at a tarpit: the lanes are apart", async () => {
    const tarpit = await startTarpit();
    const resend = await startFakeResend();
    const stop = new AbortController();
    try {
      // The tarpit's notifications are older: in one queue they would be first in line.
      await fire(await newOwner(t.db, "pro"), 10, { notification_channel: "webhook", webhook_url: tarpit.url });
      const mailed = await newOwner(t.db, "pro");
      await fire(mailed, 3);

      const sender = runOutboxSender(t.sql, {
        email: emailVia(resend.url),
        // Longer than the test: every tarpit request stays in flight until the tarpit closes.
        webhook: webhookTransport({ timeoutMs: 120_000, allowPrivate: true }),
        signal: stop.signal,
        pollMs: 20,
      });
      const emailsSent = async () =>
        (await notificationsOf(t.sql)).filter((r) => r.channel === "email" && r.status === "sent").length === 3;
      await until(
        async () => tarpit.requests() > 0 && (await emailsSent()),
        "webhooks at the tarpit and the emails sent",
      );
      expect(resend.sent.map((e) => e.to)).toEqual([mailed.email, mailed.email, mailed.email]);
      const rows = await notificationsOf(t.sql);
      expect(rows.filter((r) => r.channel === "webhook").every((r) => r.status === "pending")).toBe(true);
      // One host, one request at a time: the tarpit holds a single delivery, not the lane's five.
      expect(tarpit.requests()).toBe(1);

      stop.abort();
      await tarpit.close();
      await sender;
    } finally {
      stop.abort();
      await tarpit.close();
      await resend.close();
    }
  });

  it("puts a failing host off after a few timeouts, without holding up other hosts", async () => {
    const tarpit = await startTarpit();
    const secrets = new Map<string, string>();
    const good = await startWebhookReceiver(secrets);
    try {
      await fire(await newOwner(t.db, "pro"), 10, { notification_channel: "webhook", webhook_url: tarpit.url });
      const healthy = await newOwner(t.db, "pro");
      for (let i = 0; i < 2; i++) {
        const alert = await newAlert(t.db, healthy, CONDITIONS, {
          notification_channel: "webhook",
          webhook_url: `${good.url}/in`,
        });
        if ("webhook_secret" in alert && alert.webhook_secret) secrets.set(alert.id, alert.webhook_secret);
      }
      await setToken(t.sql, newAddress(), { liquidityUsd: 5_000 });
      await new AlertEvaluator().evaluate(t.sql, T0);

      const breaker = new HostBreaker({ threshold: 3 });
      const options = {
        email: null,
        webhook: webhookTransport({ timeoutMs: 200, allowPrivate: true }),
        breaker,
        ...fast,
      };
      await deliverDue(t.sql, options, ["webhook"]);

      expect(tarpit.requests()).toBe(3);
      expect(good.delivered.size).toBe(2);
      const atTarpit = (await notificationsOf(t.sql)).filter((r) => r.recipient === tarpit.url);
      expect(atTarpit.map((r) => r.lastError).sort()).toEqual(
        [...Array(3).fill(WEBHOOK_ERRORS.noAnswer(200)), ...Array(7).fill(HOST_PAUSED)].sort(),
      );
      expect(atTarpit.every((r) => r.status === "pending")).toBe(true);

      // Due again while the circuit is open: put off once more, without a request.
      await t.sql`update notifications set next_attempt_at = now() where status = 'pending'`;
      await deliverDue(t.sql, options, ["webhook"]);
      expect(tarpit.requests()).toBe(3);
      expect(
        (await notificationsOf(t.sql))
          .filter((r) => r.recipient === tarpit.url)
          .every((r) => r.lastError === HOST_PAUSED),
      ).toBe(true);
    } finally {
      await tarpit.close();
      await good.close();
    }
  });

  it("takes an account's receivers on one domain as one target: many ports cost a few timeouts", async () => {
    const tarpits = await Promise.all(Array.from({ length: 5 }, () => startTarpit()));
    const secrets = new Map<string, string>();
    // Another account's receiver on the same host: its deliveries are not put off.
    const good = await startWebhookReceiver(secrets);
    try {
      const minter = await newOwner(t.db, "pro");
      for (const tarpit of tarpits) {
        for (let i = 0; i < 2; i++)
          await newAlert(t.db, minter, CONDITIONS, { notification_channel: "webhook", webhook_url: tarpit.url });
      }
      const neighbour = await newOwner(t.db, "pro");
      for (let i = 0; i < 2; i++) {
        const alert = await newAlert(t.db, neighbour, CONDITIONS, {
          notification_channel: "webhook",
          webhook_url: `${good.url}/in`,
        });
        if ("webhook_secret" in alert && alert.webhook_secret) secrets.set(alert.id, alert.webhook_secret);
      }
      await setToken(t.sql, newAddress(), { liquidityUsd: 5_000 });
      await new AlertEvaluator().evaluate(t.sql, T0);

      const breaker = new HostBreaker({ threshold: 3 });
      await deliverDue(
        t.sql,
        { email: null, webhook: webhookTransport({ timeoutMs: 200, allowPrivate: true }), breaker, ...fast },
        ["webhook"],
      );

      expect(tarpits.reduce((sum, tarpit) => sum + tarpit.requests(), 0)).toBe(3);
      expect(good.delivered.size).toBe(2);
      const minted = (await notificationsOf(t.sql)).filter((r) => tarpits.some((tarpit) => tarpit.url === r.recipient));
      expect(minted.map((r) => r.lastError).sort()).toEqual(
        [...Array(3).fill(WEBHOOK_ERRORS.noAnswer(200)), ...Array(7).fill(HOST_PAUSED)].sort(),
      );
      // The account sees its failing targets, and why; the neighbour has none.
      const failing = await failingWebhookTargets(t.db, minter.accountId);
      expect(failing.map((f) => [f.url, f.alerts, f.undelivered]).sort()).toEqual(
        tarpits.map((tarpit) => [tarpit.url, 2, 2]).sort(),
      );
      expect(new Set(failing.map((f) => f.lastError))).toEqual(new Set([WEBHOOK_ERRORS.noAnswer(200), HOST_PAUSED]));
      expect(await failingWebhookTargets(t.db, neighbour.accountId)).toEqual([]);
    } finally {
      await Promise.all(tarpits.map((tarpit) => tarpit.close()));
      await good.close();
    }
  });

  it("takes accounts in turns: one account's flood does not push another's email back", async () => {
    const resend = await startFakeResend();
    try {
      await fire(await newOwner(t.db, "pro"), 12);
      const [b, c] = [await newOwner(t.db, "pro"), await newOwner(t.db, "pro")];
      await fire(b, 1);
      await fire(c, 1);

      await deliverDue(
        t.sql,
        { email: emailVia(resend.url), webhook: webhookTransport({ timeoutMs: 2_000 }), batchSize: 3, ...fast },
        ["email"],
      );
      expect(resend.sent).toHaveLength(3);
      expect(resend.sent.map((e) => e.to)).toEqual(expect.arrayContaining([b.email, c.email]));
    } finally {
      await resend.close();
    }
  });

  it("stops webhooks after a downgrade: neither fired nor delivered, with the plan's reason", async () => {
    const secrets = new Map<string, string>();
    const hooks = await startWebhookReceiver(secrets);
    try {
      const owner = await newOwner(t.db, "pro");
      const alert = await newAlert(t.db, owner, CONDITIONS, {
        notification_channel: "webhook",
        webhook_url: `${hooks.url}/in`,
      });
      if ("webhook_secret" in alert && alert.webhook_secret) secrets.set(alert.id, alert.webhook_secret);
      await setToken(t.sql, newAddress(), { liquidityUsd: 5_000 });
      await new AlertEvaluator().evaluate(t.sql, T0);
      // Fired while on Pro, delivered after the account went to Free.
      await changePlan(t.db, owner.accountId, "free", T0);
      await deliverDue(t.sql, {
        email: null,
        webhook: webhookTransport({ timeoutMs: 2_000, allowPrivate: true }),
        ...fast,
      });

      // The downgrade paused the alert; one a write racing the downgrade left active matches
      // again: the firing records the refusal instead of a delivery.
      await t.sql`update alerts set last_triggered_at = null, status = 'active'`;
      await setToken(t.sql, newAddress(), { liquidityUsd: 5_000 });
      await new AlertEvaluator().evaluate(t.sql, T0);
      await deliverDue(t.sql, {
        email: null,
        webhook: webhookTransport({ timeoutMs: 2_000, allowPrivate: true }),
        ...fast,
      });

      const rows = await notificationsOf(t.sql);
      expect(rows.map((r) => [r.status, r.lastError])).toEqual([
        ["failed", "The webhook channel is not available on the Free plan."],
        ["failed", "The webhook channel is not available on the Free plan."],
      ]);
      expect(hooks.all).toHaveLength(0);
    } finally {
      await hooks.close();
    }
  });
});
