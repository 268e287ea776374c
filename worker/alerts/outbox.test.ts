import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resendTransport } from "@/lib/alerts/email";
import { WEBHOOK_ERRORS, webhookTransport } from "@/lib/alerts/webhook";
import { getAlert } from "@/lib/queries/alerts";
import { AlertEvaluator } from "./evaluate";
import { deliverDue, EMAIL_NOT_CONFIGURED, type SenderOptions } from "./outbox";
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

let t: Awaited<ReturnType<typeof alertsDatabase>>;
beforeAll(async () => {
  t = await alertsDatabase();
});
beforeEach(() => t.reset());
afterAll(async () => {
  await t?.close();
});

const CONDITIONS = { min_liquidity_usd: 1_000 };
const fast = { backoffMs: 5, maxBackoffMs: 20, appUrl: "https://intel.example" } satisfies Partial<SenderOptions>;
const emailVia = (baseUrl: string) =>
  resendTransport({ apiKey: "re_test", baseUrl, from: "Alerts <alerts@example.com>", timeoutMs: 2_000 });
const webhooks = webhookTransport({ timeoutMs: 2_000, allowPrivate: true });

/** `count` alerts per owner on `channel`, all matching one token, evaluated once: one notification each. */
async function fire(
  owners: Owner[],
  count: number,
  extra: { notification_channel?: "email" | "webhook"; webhook_url?: string } = {},
) {
  const secrets = new Map<string, string>();
  for (const owner of owners) {
    for (let i = 0; i < count; i++) {
      const alert = await newAlert(t.db, owner, CONDITIONS, extra);
      if ("webhook_secret" in alert && alert.webhook_secret) secrets.set(alert.id, alert.webhook_secret);
    }
  }
  await setToken(t.sql, newAddress(), { liquidityUsd: 5_000 });
  await new AlertEvaluator().evaluate(t.sql, T0);
  return secrets;
}

/** Runs the sender until nothing is pending. */
async function drain(options: SenderOptions, deadlineMs = 30_000) {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const [{ pending }] = await t.sql<
      { pending: number }[]
    >`select count(*)::int as pending from notifications where status = 'pending'`;
    if (pending === 0) return;
    if (Date.now() > until) throw new Error(`${pending} notifications still pending`);
    if ((await deliverDue(t.sql, options)) === 0) await new Promise((r) => setTimeout(r, 10));
  }
}

describe("alert delivery", { timeout: 60_000 }, () => {
  it("delivers every notification exactly once as the receivers see it, though 30% of requests fail", async () => {
    const resend = await startFakeResend({ rate: 0.3, seed: 11 });
    const secrets = new Map<string, string>();
    const hooks = await startWebhookReceiver(secrets, { rate: 0.3, seed: 12 });
    try {
      const owners = [await newOwner(t.db), await newOwner(t.db), await newOwner(t.db)];
      await fire(owners, 10);
      for (const [id, secret] of await fire([owners[0]], 10, {
        notification_channel: "webhook",
        webhook_url: `${hooks.url}/in`,
      })) {
        secrets.set(id, secret);
      }

      const small = { maxAttempts: 30, batchSize: 8, emailsPerCall: 3 };
      await drain({ email: emailVia(resend.url), webhook: webhooks, ...small, ...fast });

      const rows = await notificationsOf(t.sql);
      expect(rows).toHaveLength(40);
      expect(rows.every((r) => r.status === "sent")).toBe(true);
      const emails = rows.filter((r) => r.channel === "email");
      expect(resend.sent.map((s) => s.ref).sort()).toEqual(emails.map((r) => r.idempotencyKey).sort());
      for (const r of emails) expect(resend.sent.find((s) => s.ref === r.idempotencyKey)?.to).toBe(r.recipient);
      expect(resend.batchRequests).toBeGreaterThan(0);
      const hooksSent = rows.filter((r) => r.channel === "webhook");
      expect([...hooks.delivered.keys()].sort()).toEqual(hooksSent.map((r) => r.idempotencyKey).sort());
      expect(hooks.all.every((d) => d.verified)).toBe(true);
      // Faults did happen, including after processing: receivers saw retries of delivered messages.
      expect(resend.requests).toBeGreaterThan(new Set(emails.map((r) => r.batchKey)).size);
      expect([...resend.requestsByKey.values()].some((n) => n > 1)).toBe(true);
      expect(hooks.all.length).toBeGreaterThan(hooks.delivered.size);
    } finally {
      await resend.close();
      await hooks.close();
    }
  });

  it("marks a notification that keeps failing as failed after its last retry, in the alert's history", async () => {
    const secrets = new Map<string, string>();
    const hooks = await startWebhookReceiver(secrets, { rate: 0 }, 500);
    try {
      const owner = await newOwner(t.db);
      for (const [id, s] of await fire([owner], 1, { notification_channel: "webhook", webhook_url: `${hooks.url}/in` }))
        secrets.set(id, s);
      await drain({ email: null, webhook: webhooks, maxAttempts: 3, ...fast });
      const [row] = await notificationsOf(t.sql);
      expect(row).toMatchObject({ status: "failed", attempts: 3, lastError: WEBHOOK_ERRORS.status(500) });
      const detail = await getAlert(t.db, owner, row.alertId);
      expect(detail.deliveries).toEqual([
        expect.objectContaining({
          status: "failed",
          attempts: 3,
          last_error: WEBHOOK_ERRORS.status(500),
          sent_at: null,
        }),
      ]);
    } finally {
      await hooks.close();
    }
  });

  it("refuses a webhook target on a private address at delivery time", async () => {
    const hooks = await startWebhookReceiver(new Map());
    try {
      await fire([await newOwner(t.db)], 1, { notification_channel: "webhook", webhook_url: `${hooks.url}/in` });
      await drain({ email: null, webhook: webhookTransport({ timeoutMs: 2_000, allowPrivate: false }), ...fast });
      const [row] = await notificationsOf(t.sql);
      // Said the same whatever the target's network is: no internal address in the user's view.
      expect(row).toMatchObject({ status: "failed", attempts: 1, lastError: WEBHOOK_ERRORS.notPublic });
      expect(hooks.all).toHaveLength(0);
    } finally {
      await hooks.close();
    }
  });

  it("keeps emails in the outbox and the log without RESEND_API_KEY, and sends them once a key is set", async () => {
    const resend = await startFakeResend();
    const secrets = new Map<string, string>();
    const hooks = await startWebhookReceiver(secrets);
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (written.push(String(chunk)), true));
    try {
      const owner = await newOwner(t.db);
      await fire([owner], 2);
      for (const [id, s] of await fire([owner], 1, { notification_channel: "webhook", webhook_url: `${hooks.url}/in` }))
        secrets.set(id, s);

      for (let i = 0; i < 3; i++) await deliverDue(t.sql, { email: null, webhook: webhooks, ...fast });
      spy.mockRestore();
      const rows = await notificationsOf(t.sql);
      const emails = rows.filter((r) => r.channel === "email");
      expect(emails.map((r) => [r.status, r.attempts, r.lastError])).toEqual([
        ["pending", 0, EMAIL_NOT_CONFIGURED],
        ["pending", 0, EMAIL_NOT_CONFIGURED],
      ]);
      expect(rows.find((r) => r.channel === "webhook")?.status).toBe("sent");
      const logged = written.filter((l) => l.includes("kept in the outbox")).map((l) => JSON.parse(l));
      expect(logged.map((l) => l.id).sort()).toEqual(emails.map((r) => r.id).sort());
      expect(logged[0]).toMatchObject({ to: owner.email, subject: expect.stringContaining("1 new matching token") });

      await drain({ email: emailVia(resend.url), webhook: webhooks, ...fast });
      expect(resend.sent).toHaveLength(2);
    } finally {
      spy.mockRestore();
      await resend.close();
      await hooks.close();
    }
  });

  it("sends up to 100 emails a call, each message once, under its own reference", async () => {
    const resend = await startFakeResend();
    try {
      await fire([await newOwner(t.db), await newOwner(t.db), await newOwner(t.db)], 50);
      await drain({ email: emailVia(resend.url), webhook: webhooks, ...fast });
      const rows = await notificationsOf(t.sql);
      expect(rows.every((r) => r.status === "sent")).toBe(true);
      expect(resend.sent.map((s) => s.ref).sort()).toEqual(rows.map((r) => r.idempotencyKey).sort());
      const calls = { all: resend.requests, batches: resend.batchRequests, largest: resend.largestBatch };
      expect(calls).toEqual({ all: 2, batches: 2, largest: 100 });
    } finally {
      await resend.close();
    }
  });

  it("sends a batch refused for one message again one by one: the others go, that one fails", async () => {
    const resend = await startFakeResend();
    try {
      const good = [await newOwner(t.db), await newOwner(t.db)];
      const broken = await newOwner(t.db, "pro", "not-an-address");
      await fire([...good, broken], 3);
      await drain({ email: emailVia(resend.url), webhook: webhooks, ...fast });
      const rows = await notificationsOf(t.sql);
      const refused = rows.filter((r) => r.recipient === "not-an-address");
      expect(refused.map((r) => [r.status, r.attempts])).toEqual(Array(3).fill(["failed", 2]));
      expect(refused[0].lastError).toContain("refused this message");
      const delivered = rows.filter((r) => r.recipient !== "not-an-address");
      expect(delivered.every((r) => r.status === "sent")).toBe(true);
      expect(resend.sent.map((s) => s.ref).sort()).toEqual(delivered.map((r) => r.idempotencyKey).sort());
      expect(resend.batchRequests).toBe(1);
    } finally {
      await resend.close();
    }
  });

  it("neither loses nor duplicates a message when the sender is killed mid-batch and restarted", async () => {
    // Four calls of five emails at a time.
    const SENDER = { batchSize: 20, emailsPerCall: 5, concurrency: 4, leaseMs: 1_500, pollMs: 50, backoffMs: 10 };
    // Slow answers keep several batches in flight: sent by Resend, not yet recorded as sent.
    const resend = await startFakeResend({ rate: 0, delayMs: 150 });
    const child = path.join(import.meta.dirname, "test", "sender-child.ts");
    const children: { proc: ChildProcess; exited: Promise<void> }[] = [];
    const start = () => {
      const proc = spawn(process.execPath, ["--import", "tsx", child], {
        env: {
          ...process.env,
          DATABASE_URL: t.url,
          RESEND_API_KEY: "re_test",
          RESEND_BASE_URL: resend.url,
          APP_URL: "https://intel.example",
          LOG_LEVEL: "error",
          SENDER_OPTIONS: JSON.stringify(SENDER),
        },
        stdio: ["ignore", "inherit", "inherit"],
      });
      const started = { proc, exited: new Promise<void>((r) => proc.once("exit", () => r())) };
      children.push(started);
      return started;
    };
    try {
      await fire([await newOwner(t.db), await newOwner(t.db)], 20);
      const first = start();
      await new Promise<void>((resolve) => {
        resend.onRequest = () => {
          if (resend.requests >= 6) resolve();
        };
      });
      first.proc.kill("SIGKILL");
      await first.exited;
      resend.onRequest = undefined;

      const afterKill = await notificationsOf(t.sql);
      const sentRefs = new Set(resend.sent.map((s) => s.ref));
      const inFlight = afterKill.filter((r) => r.status === "pending" && sentRefs.has(r.idempotencyKey));
      expect(inFlight.length).toBeGreaterThan(0);

      const second = start();
      const until = Date.now() + 45_000;
      while ((await notificationsOf(t.sql)).some((r) => r.status !== "sent")) {
        if (Date.now() > until) throw new Error("the restarted sender did not finish");
        await new Promise((r) => setTimeout(r, 100));
      }
      second.proc.kill("SIGTERM");
      await second.exited;

      const rows = await notificationsOf(t.sql);
      expect(rows).toHaveLength(40);
      expect(resend.sent.map((s) => s.ref).sort()).toEqual(rows.map((r) => r.idempotencyKey).sort());
      // Each in-flight batch was sent again whole, under its key, and Resend did not send it twice.
      for (const r of inFlight) expect(resend.requestsByKey.get(r.batchKey!)).toBeGreaterThanOrEqual(2);
    } finally {
      for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill("SIGKILL");
      await Promise.all(children.map((c) => c.exited));
      await resend.close();
    }
  }, 90_000);
});
