import type { Sql } from "@/db/client";
import { config } from "@/lib/config";
import { dashboardUrl, emailTransportFromConfig, renderAlertEmail, type EmailTransport } from "@/lib/alerts/email";
import type { AlertNotification, DeliveryResult } from "@/lib/alerts/payload";
import { webhookBody, webhookTransport, type WebhookTransport } from "@/lib/alerts/webhook";
import { log } from "@/lib/log";
import { sleep } from "../sleep";

/**
 * The outbox sender. Rows are claimed in a short transaction (FOR UPDATE SKIP LOCKED, so any
 * number of senders share the table): the claim counts the attempt and leases the row by moving
 * next_attempt_at past the delivery; the result is recorded after. A sender that dies in between
 * leaves the row to be claimed again once the lease runs out, and the retry carries the same
 * idempotency key: Resend answers it without a second email, webhook receivers dedupe on
 * Webhook-Id. Failed attempts retry with exponential backoff and jitter; after maxAttempts (or a
 * failure no retry can fix) the row is `failed`, which GET /v1/alerts/{id} shows.
 *
 * Without an email transport (no RESEND_API_KEY) email rows stay `pending`: each is logged once
 * with its content and marked with last_error EMAIL_NOT_CONFIGURED, and they go out once a
 * sender runs with a key. Webhooks are delivered either way.
 */
export type SenderOptions = {
  email: EmailTransport | null;
  webhook: WebhookTransport;
  /** Origin of the dashboard links in emails (default: APP_URL, else the local server). */
  appUrl?: string;
  batchSize?: number;
  /** Deliveries in flight at once within a batch. */
  concurrency?: number;
  maxAttempts?: number;
  /** Delay before the first retry; it doubles with each attempt up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How long a claimed row stays invisible: longer than a batch's deliveries can take. */
  leaseMs?: number;
};

/**
 * The defaults keep the whole retry schedule (about an hour) well inside the 24 hours for
 * which Resend honours an idempotency key.
 */
const DEFAULTS = {
  batchSize: 20,
  concurrency: 5,
  maxAttempts: 8,
  backoffMs: 30_000,
  maxBackoffMs: 30 * 60_000,
  leaseMs: 5 * 60_000,
};

export const EMAIL_NOT_CONFIGURED = "RESEND_API_KEY not set: kept in the outbox";

/** Transports as configured (RESEND_API_KEY, RESEND_BASE_URL, EMAIL_FROM, WEBHOOK_ALLOW_PRIVATE). */
export function transportsFromConfig(): Pick<SenderOptions, "email" | "webhook"> {
  return { email: emailTransportFromConfig(), webhook: webhookTransport({ timeoutMs: 10_000, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE }) };
}

type Claimed = {
  id: string;
  channel: string;
  recipient: string;
  idempotencyKey: string;
  payload: AlertNotification;
  attempts: number;
  webhookSecret: string | null;
};

/** One pass over due rows: returns how many were claimed (0 when the outbox has nothing due). */
export async function deliverDue(sql: Sql, options: SenderOptions): Promise<number> {
  const opts = { ...DEFAULTS, ...options, appUrl: options.appUrl ?? dashboardUrl() };
  if (!opts.email) await parkEmails(sql);
  const claimed = await sql<Claimed[]>`
    update notifications n
       set attempts = n.attempts + 1, next_attempt_at = now() + ${opts.leaseMs}::float8 * interval '1 millisecond'
      from (select n2.id, a.webhook_secret
              from notifications n2 join alerts a on a.id = n2.alert_id
             where n2.status = 'pending' and n2.next_attempt_at <= now() and (${opts.email !== null}::bool or n2.channel <> 'email')
             order by n2.next_attempt_at, n2.id
             limit ${opts.batchSize}::int
               for update of n2 skip locked) due
     where n.id = due.id
    returning n.id, n.channel, n.recipient, n.idempotency_key as "idempotencyKey", n.payload, n.attempts,
              due.webhook_secret as "webhookSecret"`;
  let next = 0;
  const lane = async () => {
    while (next < claimed.length) {
      const row = claimed[next++];
      await record(sql, row, await attempt(row, opts), opts);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency, claimed.length) }, lane));
  return claimed.length;
}

async function attempt(row: Claimed, opts: SenderOptions & { appUrl: string }): Promise<DeliveryResult> {
  try {
    if (row.channel === "email" && opts.email) {
      return await opts.email.send(row.recipient, renderAlertEmail(row.payload, opts.appUrl), row.idempotencyKey);
    }
    if (row.channel === "webhook" && row.webhookSecret) {
      return await opts.webhook.send(row.recipient, row.webhookSecret, row.idempotencyKey, webhookBody(row.idempotencyKey, row.payload));
    }
    return { ok: false, error: `cannot deliver on channel ${row.channel} (alert changed channel?)`, permanent: true };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err), permanent: false };
  }
}

/** Records an attempt's outcome, unless the row was claimed again meanwhile (its lease ran out). */
async function record(sql: Sql, row: Claimed, result: DeliveryResult, opts: typeof DEFAULTS) {
  const mine = sql`id = ${row.id}::bigint and attempts = ${row.attempts}::int and status = 'pending'`;
  if (result.ok) {
    await sql`update notifications set status = 'sent', sent_at = now(), last_error = null where ${mine}`;
    return;
  }
  const final = result.permanent || row.attempts >= opts.maxAttempts;
  log.warn("alert notification not delivered", { id: row.id, channel: row.channel, attempts: row.attempts, final, error: result.error });
  if (final) {
    await sql`update notifications set status = 'failed', last_error = ${result.error} where ${mine}`;
    return;
  }
  // Exponential backoff with jitter, so retries from one outage do not arrive together.
  const delay = Math.min(opts.maxBackoffMs, opts.backoffMs * 2 ** (row.attempts - 1)) * (0.5 + Math.random() / 2);
  await sql`
    update notifications set last_error = ${result.error}, next_attempt_at = now() + ${delay}::float8 * interval '1 millisecond'
     where ${mine}`;
}

/** Without an email transport: logs each email once and marks it as kept. */
async function parkEmails(sql: Sql) {
  const parked = await sql<{ id: string; recipient: string; payload: AlertNotification }[]>`
    update notifications set last_error = ${EMAIL_NOT_CONFIGURED}
     where channel = 'email' and status = 'pending' and last_error is distinct from ${EMAIL_NOT_CONFIGURED}
    returning id, recipient, payload`;
  for (const n of parked) {
    const { subject, text } = renderAlertEmail(n.payload);
    log.info("alert email kept in the outbox (RESEND_API_KEY not set)", { id: n.id, to: n.recipient, subject, text });
  }
}

/** Runs deliverDue until `signal` aborts, polling every `pollMs` while nothing is due. */
export async function runOutboxSender(sql: Sql, options: SenderOptions & { signal?: AbortSignal; pollMs?: number }): Promise<void> {
  const { signal, pollMs = 1_000 } = options;
  let failures = 0;
  while (!signal?.aborted) {
    let claimed = 0;
    try {
      claimed = await deliverDue(sql, options);
      failures = 0;
    } catch (err) {
      failures++;
      log.error("alert outbox pass failed", { error: err instanceof Error ? err.message : String(err), failures });
    }
    if (claimed === 0) await sleep(failures ? Math.min(30_000, pollMs * 2 ** failures) : pollMs, signal);
  }
}
