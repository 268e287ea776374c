import { names, updateSql } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { notifications } from "@/db/schema";
import { dashboardUrl, type EmailTransport, emailTransportFromConfig, renderAlertEmail } from "@/lib/alerts/email";
import { breakerKey, HostBreaker } from "@/lib/alerts/host-breaker";
import type { AlertNotification, DeliveryResult } from "@/lib/alerts/payload";
import { webhooksRefused } from "@/lib/alerts/service";
import { type WebhookTransport, webhookBody, webhookTransport } from "@/lib/alerts/webhook";
import { config } from "@/lib/config";
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
 * Nobody's notifications wait on anybody else's receiver:
 * - email and webhooks are separate lanes, claimed and delivered apart, so a slow webhook
 *   never holds up an email (runOutboxSender runs each lane in a loop of its own);
 * - each claim takes the accounts' due rows in turns (every account's oldest first, then every
 *   account's second, ...), so one account's flood does not push the others back;
 * - webhooks go one at a time per account and registrable domain, and such a target that keeps
 *   failing is put off for a while by a circuit breaker (lib/alerts/host-breaker.ts) instead of
 *   costing a timeout per message (however many subdomains or ports it answers on).
 *
 * A webhook is delivered only while the account's plan has webhooks (after a downgrade the
 * notification fails with the plan's reason). Without an email transport (no RESEND_API_KEY)
 * email rows stay `pending`: each is logged once with its content and marked with last_error
 * EMAIL_NOT_CONFIGURED, and they go out once a sender runs with a key.
 */
export type SenderOptions = {
  email: EmailTransport | null;
  webhook: WebhookTransport;
  /** Origin of the dashboard links in emails (default: APP_URL, else the local server). */
  appUrl?: string;
  /** Rows claimed per lane per pass. */
  batchSize?: number;
  /** Deliveries in flight at once within a lane's pass (webhooks: targets at once). */
  concurrency?: number;
  maxAttempts?: number;
  /** Delay before the first retry; it doubles with each attempt up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How long a claimed row stays invisible: longer than a batch's deliveries can take. */
  leaseMs?: number;
  /** Webhook targets' circuits; keep one across passes (runOutboxSender does). */
  breaker?: HostBreaker;
};

export const CHANNELS = ["email", "webhook"] as const;
export type Channel = (typeof CHANNELS)[number];

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

type Resolved = SenderOptions & typeof DEFAULTS & { appUrl: string; breaker: HostBreaker };

export const EMAIL_NOT_CONFIGURED = "Not sent: this server has no email service configured (RESEND_API_KEY); the message waits in the outbox.";
export const HOST_PAUSED =
  "Your webhooks at this domain kept failing, so deliveries to it are paused for a few minutes; they resume by themselves once it answers.";

/** Transports as configured (RESEND_API_KEY, RESEND_BASE_URL, EMAIL_FROM, WEBHOOK_ALLOW_PRIVATE). */
export function transportsFromConfig(): Pick<SenderOptions, "email" | "webhook"> {
  return { email: emailTransportFromConfig(), webhook: webhookTransport({ timeoutMs: 10_000, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE }) };
}

type Claimed = {
  id: string;
  accountId: string;
  channel: Channel;
  recipient: string;
  idempotencyKey: string;
  payload: AlertNotification;
  attempts: number;
  webhookSecret: string | null;
  planLabel: string;
  webhooks: boolean;
};

const resolve = (options: SenderOptions): Resolved => ({
  ...DEFAULTS,
  ...options,
  appUrl: options.appUrl ?? dashboardUrl(),
  breaker: options.breaker ?? new HostBreaker(),
});

/** One pass over the due rows of each lane, the lanes side by side: how many rows were claimed. */
export async function deliverDue(sql: Sql, options: SenderOptions, channels: readonly Channel[] = CHANNELS): Promise<number> {
  const opts = resolve(options);
  const claimed = await Promise.all(channels.map((channel) => deliverLane(sql, channel, opts)));
  return claimed.reduce((a, b) => a + b, 0);
}

async function deliverLane(sql: Sql, channel: Channel, opts: Resolved): Promise<number> {
  if (channel === "email" && !opts.email) {
    await parkEmails(sql);
    return 0;
  }
  const claimed = await claim(sql, channel, opts);
  if (channel === "email") {
    await inParallel(claimed, opts.concurrency, async (row) => record(sql, row, await attempt(row, opts), opts));
  } else {
    const byTarget = new Map<string, Claimed[]>();
    for (const row of claimed) {
      const target = breakerKey(row.accountId, row.recipient);
      byTarget.set(target, [...(byTarget.get(target) ?? []), row]);
    }
    await inParallel([...byTarget], opts.concurrency, ([target, rows]) => deliverToTarget(sql, target, rows, opts));
  }
  return claimed.length;
}

const n = names(notifications);
/** `now()` plus $k milliseconds. */
const inMs = (k: number) => `now() + $${k}::float8 * interval '1 millisecond'`;

/** Claims up to $2 due rows of lane $1 and leases them for $3 ms; returns them with what delivery needs. */
const CLAIM = `
  with ranked as (
    select n.id, n.next_attempt_at,
           row_number() over (partition by a.account_id order by n.next_attempt_at, n.id) as turn
      from notifications n join alerts a on a.id = n.alert_id
     where n.status = 'pending' and n.next_attempt_at <= now() and n.channel = $1
  ), due as (
    select n.id from notifications n join ranked r on r.id = n.id
     where n.status = 'pending' and n.next_attempt_at <= now()
     order by r.turn, r.next_attempt_at, n.id
     limit $2::int
       for update of n skip locked
  )
  ${updateSql(
    notifications,
    { attempts: `t.${n.attempts} + 1`, nextAttemptAt: inMs(3) },
    "from due, alerts a join accounts acc on acc.id = a.account_id join plans p on p.id = acc.plan",
    `t.${n.id} = due.id and a.id = t.${n.alertId}`,
  )}
  returning t.${n.id} as id, a.account_id as "accountId", t.${n.channel} as channel, t.${n.recipient} as recipient,
            t.${n.idempotencyKey} as "idempotencyKey",
            t.${n.payload} as payload, t.${n.attempts} as attempts, a.webhook_secret as "webhookSecret", p.label as "planLabel", p.webhooks`;

/**
 * Claims up to batchSize due rows of the lane, the accounts taking turns: each account's rows
 * ranked by due time, and the batch filled rank by rank.
 */
function claim(sql: Sql, channel: Channel, opts: Resolved) {
  return sql.unsafe<Claimed[]>(CLAIM, [channel, opts.batchSize, opts.leaseMs]);
}

/** Runs `work` over `items`, at most `limit` at once. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** One target's webhooks (breakerKey), one at a time; while its circuit is open they are put off unsent. */
async function deliverToTarget(sql: Sql, target: string, rows: Claimed[], opts: Resolved) {
  for (const row of rows) {
    if (!opts.breaker.allows(target)) {
      await record(sql, row, { ok: false, error: HOST_PAUSED, permanent: false }, opts);
      continue;
    }
    const result = await attempt(row, opts);
    // A refused target (permanent) says nothing about the receiver's health.
    if (result.ok) opts.breaker.succeeded(target);
    else if (!result.permanent) opts.breaker.failed(target);
    await record(sql, row, result, opts);
  }
}

async function attempt(row: Claimed, opts: Resolved): Promise<DeliveryResult> {
  try {
    if (row.channel === "email" && opts.email) {
      return await opts.email.send(row.recipient, renderAlertEmail(row.payload, opts.appUrl), row.idempotencyKey);
    }
    if (row.channel === "webhook" && !row.webhooks) return { ok: false, error: webhooksRefused({ label: row.planLabel }), permanent: true };
    if (row.channel === "webhook" && row.webhookSecret) {
      return await opts.webhook.send(row.recipient, row.webhookSecret, row.idempotencyKey, webhookBody(row.idempotencyKey, row.payload));
    }
    return { ok: false, error: "Not sent: the alert's channel changed before this delivery went out.", permanent: true };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err), permanent: false };
  }
}

/** The row $1 as claimed at attempt $2, unless claimed again meanwhile. */
const MINE = `t.${n.id} = $1::bigint and t.${n.attempts} = $2::int and t.${n.status} = 'pending'`;
const SENT = updateSql(notifications, { status: "'sent'", sentAt: "now()", lastError: "null" }, "", MINE);
/** Failed for good with error $3. */
const FAILED = updateSql(notifications, { status: "'failed'", lastError: "$3" }, "", MINE);
/** Failed with error $3, retried in $4 ms. */
const RETRY = updateSql(notifications, { lastError: "$3", nextAttemptAt: inMs(4) }, "", MINE);

/** Records an attempt's outcome, unless the row was claimed again meanwhile (its lease ran out). */
async function record(sql: Sql, row: Claimed, result: DeliveryResult, opts: Resolved) {
  const mine = [row.id, row.attempts];
  if (result.ok) {
    await sql.unsafe(SENT, mine);
    return;
  }
  const final = result.permanent || row.attempts >= opts.maxAttempts;
  log.warn("alert notification not delivered", { id: row.id, channel: row.channel, attempts: row.attempts, final, error: result.error, detail: result.detail });
  if (final) {
    await sql.unsafe(FAILED, [...mine, result.error]);
    return;
  }
  // Exponential backoff with jitter, so retries from one outage do not arrive together.
  const delay = Math.min(opts.maxBackoffMs, opts.backoffMs * 2 ** (row.attempts - 1)) * (0.5 + Math.random() / 2);
  await sql.unsafe(RETRY, [...mine, result.error, delay]);
}

/** Marks the pending emails not yet marked with $1 (EMAIL_NOT_CONFIGURED); returns them. */
const PARK_EMAILS = `${updateSql(
  notifications,
  { lastError: "$1" },
  "",
  `t.${n.channel} = 'email' and t.${n.status} = 'pending' and t.${n.lastError} is distinct from $1`,
)} returning t.${n.id} as id, t.${n.recipient} as recipient, t.${n.payload} as payload`;

/** Without an email transport: logs each email once and marks it as kept. */
async function parkEmails(sql: Sql) {
  const parked = await sql.unsafe<{ id: string; recipient: string; payload: AlertNotification }[]>(PARK_EMAILS, [EMAIL_NOT_CONFIGURED]);
  for (const n of parked) {
    const { subject, text } = renderAlertEmail(n.payload);
    log.info("alert email kept in the outbox (RESEND_API_KEY not set)", { id: n.id, to: n.recipient, subject, text });
  }
}

/**
 * Runs each lane in a loop of its own until `signal` aborts, polling every `pollMs` while it has
 * nothing due: a lane busy with slow receivers never delays the other.
 */
export async function runOutboxSender(sql: Sql, options: SenderOptions & { signal?: AbortSignal; pollMs?: number }): Promise<void> {
  const { signal, pollMs = 1_000 } = options;
  const lane = { ...options, breaker: options.breaker ?? new HostBreaker() };
  await Promise.all(
    CHANNELS.map(async (channel) => {
      let failures = 0;
      while (!signal?.aborted) {
        let claimed = 0;
        try {
          claimed = await deliverDue(sql, lane, [channel]);
          failures = 0;
        } catch (err) {
          failures++;
          log.error("alert outbox pass failed", { channel, error: err instanceof Error ? err.message : String(err), failures });
        }
        if (claimed === 0) await sleep(failures ? Math.min(30_000, pollMs * 2 ** failures) : pollMs, signal);
      }
    }),
  );
}
