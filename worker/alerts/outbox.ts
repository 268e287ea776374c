import { names, type Tx, tableName, updateSql } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { accounts, alerts, notifications, plans } from "@/db/schema";
import {
  dashboardUrl,
  EMAILS_PER_CALL,
  type EmailResult,
  type EmailTransport,
  emailTransportFromConfig,
  type OutgoingEmail,
  renderAlertEmail,
} from "@/lib/alerts/email";
import { breakerKey, HostBreaker } from "@/lib/alerts/host-breaker";
import type { AlertNotification, DeliveryResult } from "@/lib/alerts/payload";
import { webhooksRefused } from "@/lib/alerts/service";
import { type WebhookTransport, webhookBody, webhookTransport } from "@/lib/alerts/webhook";
import { config } from "@/lib/config";
import { newId } from "@/lib/keys/secret";
import { log } from "@/lib/log";
import { sleep } from "../sleep";

/**
 * The outbox sender. Rows are claimed in a short transaction (FOR UPDATE SKIP LOCKED, so any
 * number of senders share the table): the claim counts the attempt and leases the row by moving
 * next_attempt_at past the delivery; the result is recorded after. A sender that dies in between
 * leaves the row to be claimed again once the lease runs out, and the retry carries the same
 * idempotency key: Resend answers it without a second email, webhook receivers dedupe on
 * Webhook-Id. Emails go in batches, up to emailsPerCall a call (Resend's batch endpoint), each
 * batch under a key of its own: its members and its key are fixed in the claim's transaction
 * (notifications.batch_key), and whoever retries any of its rows resends that whole batch under
 * that key, so Resend sends it once. Failed attempts retry with exponential backoff and jitter;
 * after maxAttempts (or a failure no retry can fix) the row is `failed`, which GET
 * /v1/alerts/{id} shows.
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
  /** Rows claimed per lane per pass (default: emailsPerCall × concurrency emails, 20 webhooks). */
  batchSize?: number;
  /** Emails sent in one call, at most Resend's EMAILS_PER_CALL. */
  emailsPerCall?: number;
  /** Deliveries in flight at once within a lane's pass (email: calls; webhooks: targets at once). */
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
  emailsPerCall: EMAILS_PER_CALL,
  concurrency: 5,
  maxAttempts: 8,
  backoffMs: 30_000,
  maxBackoffMs: 30 * 60_000,
  leaseMs: 5 * 60_000,
};

/** Webhook rows claimed per pass, by default: they go one at a time per target. */
const WEBHOOKS_PER_PASS = 20;

type Resolved = SenderOptions & typeof DEFAULTS & { appUrl: string; breaker: HostBreaker };

export const EMAIL_NOT_CONFIGURED =
  "Not sent: this server has no email service configured (RESEND_API_KEY); the message waits in the outbox.";
export const HOST_PAUSED =
  "Your webhooks at this domain kept failing, so deliveries to it are paused for a few minutes; " +
  "they resume by themselves once it answers.";

/** Transports as configured (RESEND_API_KEY, RESEND_BASE_URL, EMAIL_FROM, WEBHOOK_ALLOW_PRIVATE). */
export function transportsFromConfig(): Pick<SenderOptions, "email" | "webhook"> {
  return {
    email: emailTransportFromConfig(),
    webhook: webhookTransport({ timeoutMs: 10_000, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE }),
  };
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
  /** The email batch the row went out in at an earlier attempt; null before its first. */
  batchKey: string | null;
};

const resolve = (options: SenderOptions): Resolved => ({
  ...DEFAULTS,
  ...options,
  appUrl: options.appUrl ?? dashboardUrl(),
  breaker: options.breaker ?? new HostBreaker(),
});

/** One pass over the due rows of each lane, the lanes side by side: how many rows were claimed. */
export async function deliverDue(
  sql: Sql,
  options: SenderOptions,
  channels: readonly Channel[] = CHANNELS,
): Promise<number> {
  const opts = resolve(options);
  const claimed = await Promise.all(channels.map((channel) => deliverLane(sql, channel, opts)));
  return claimed.reduce((a, b) => a + b, 0);
}

async function deliverLane(sql: Sql, channel: Channel, opts: Resolved): Promise<number> {
  if (channel === "email" && !opts.email) {
    await parkEmails(sql);
    return 0;
  }
  if (channel === "email") return deliverEmails(sql, opts);
  const claimed = await claim(sql, channel, opts.batchSize ?? WEBHOOKS_PER_PASS, opts);
  const byTarget = new Map<string, Claimed[]>();
  for (const row of claimed) {
    const target = breakerKey(row.accountId, row.recipient);
    byTarget.set(target, [...(byTarget.get(target) ?? []), row]);
  }
  await inParallel([...byTarget], opts.concurrency, ([target, rows]) => deliverToTarget(sql, target, rows, opts));
  return claimed.length;
}

const n = names(notifications);
const al = names(alerts);
const ac = names(accounts);
const pn = names(plans);
const NOTIFICATIONS = tableName(notifications);
/** `now()` plus $k milliseconds. */
const inMs = (k: number) => `now() + $${k}::float8 * interval '1 millisecond'`;

/** Claims up to $2 due rows of lane $1 and leases them for $3 ms; returns them with what delivery needs. */
const CLAIM = `
  with ranked as (
    select n.${n.id} as id, n.${n.nextAttemptAt} as next_attempt_at,
           row_number() over (partition by a.${al.accountId} order by n.${n.nextAttemptAt}, n.${n.id}) as turn
      from ${NOTIFICATIONS} n join ${tableName(alerts)} a on a.${al.id} = n.${n.alertId}
     where n.${n.status} = 'pending' and n.${n.nextAttemptAt} <= now() and n.${n.channel} = $1
  ), due as (
    select n.${n.id} as id from ${NOTIFICATIONS} n join ranked r on r.id = n.${n.id}
     where n.${n.status} = 'pending' and n.${n.nextAttemptAt} <= now()
     order by r.turn, r.next_attempt_at, n.${n.id}
     limit $2::int
       for update of n skip locked
  )
  ${updateSql(
    notifications,
    { attempts: `t.${n.attempts} + 1`, nextAttemptAt: inMs(3) },
    `from due, ${tableName(alerts)} a join ${tableName(accounts)} acc on acc.${ac.id} = a.${al.accountId}
       join ${tableName(plans)} p on p.${pn.id} = acc.${ac.plan}`,
    `t.${n.id} = due.id and a.${al.id} = t.${n.alertId}`,
  )}
  returning t.${n.id} as id, a.${al.accountId} as "accountId", t.${n.channel} as channel,
            t.${n.recipient} as recipient, t.${n.idempotencyKey} as "idempotencyKey", t.${n.batchKey} as "batchKey",
            t.${n.payload} as payload, t.${n.attempts} as attempts, a.${al.webhookSecret} as "webhookSecret",
            p.${pn.label} as "planLabel", p.${pn.webhooks} as webhooks`;

/**
 * Claims up to `limit` due rows of the lane, the accounts taking turns: each account's rows
 * ranked by due time, and the batch filled rank by rank.
 */
function claim(tx: Tx, channel: Channel, limit: number, opts: Resolved) {
  return tx.unsafe<Claimed[]>(CLAIM, [channel, limit, opts.leaseMs]);
}

/** An email batch: every member (in id order, the order it is always sent in), and those this pass claimed. */
type EmailBatch = { key: string; members: Member[]; mine: Claimed[] };
type Member = { id: string; recipient: string; idempotencyKey: string; payload: AlertNotification };

const ASSIGNED = "from unnest($1::bigint[], $2::text[]) u(id, key)";
const ASSIGN_BATCHES = updateSql(notifications, { batchKey: "u.key" }, ASSIGNED, `t.${n.id} = u.id`);
const BATCH_MEMBERS = `
  select t.${n.id} as id, t.${n.recipient} as recipient, t.${n.idempotencyKey} as "idempotencyKey",
         t.${n.payload} as payload, t.${n.batchKey} as "batchKey"
    from unnest($1::text[]) u(key) join ${NOTIFICATIONS} t on t.${n.batchKey} = u.key order by t.${n.id}`;

/**
 * Claims due emails (the accounts taking turns) and puts them in batches, in one transaction:
 * rows new to batching are cut into batches of emailsPerCall, each keyed anew (a batch of one
 * goes alone under the row's own key); a row that was in a batch goes in it again, with all its
 * members whatever their state, so the call repeats exactly.
 */
function claimEmailBatches(sql: Sql, opts: Resolved): Promise<EmailBatch[]> {
  return sql.begin(async (tx) => {
    const claimed = await claim(tx, "email", opts.batchSize ?? opts.emailsPerCall * opts.concurrency, opts);
    const fresh = claimed.filter((r) => r.batchKey === null);
    const again = [...new Set(claimed.flatMap((r) => (r.batchKey === null ? [] : [r.batchKey])))];
    const assigned: [string[], string[]] = [[], []];
    for (let i = 0; i < fresh.length; i += opts.emailsPerCall) {
      const chunk = fresh.slice(i, i + opts.emailsPerCall);
      const key = chunk.length === 1 ? chunk[0].idempotencyKey : newId("btch");
      for (const r of chunk) (r.batchKey = key), assigned[0].push(r.id), assigned[1].push(key);
    }
    if (assigned[0].length) await tx.unsafe(ASSIGN_BATCHES, assigned);
    const members = new Map<string, Member[]>();
    for (const m of again.length ? await tx.unsafe<(Member & { batchKey: string })[]>(BATCH_MEMBERS, [again]) : []) {
      const list = members.get(m.batchKey) ?? [];
      members.set(m.batchKey, list);
      list.push(m);
    }
    const batches = new Map<string, EmailBatch>();
    for (const r of claimed) {
      const key = r.batchKey!;
      let batch = batches.get(key);
      if (!batch) batches.set(key, (batch = { key, members: members.get(key) ?? [], mine: [] }));
      batch.mine.push(r);
      if (!members.has(key)) batch.members.push(r);
    }
    for (const b of batches.values()) b.members.sort((x, y) => Number(x.id) - Number(y.id));
    return [...batches.values()];
  });
}

/** One pass of the email lane: claims, then sends the batches, `concurrency` calls at once. */
async function deliverEmails(sql: Sql, opts: Resolved): Promise<number> {
  const batches = await claimEmailBatches(sql, opts);
  await inParallel(batches, opts.concurrency, async (batch) => {
    const emails = batch.members.map((m): OutgoingEmail => {
      return { to: m.recipient, email: renderAlertEmail(m.payload, opts.appUrl), ref: m.idempotencyKey };
    });
    let result: EmailResult;
    try {
      result = await opts.email!.send(emails, batch.key);
    } catch (err) {
      result = { ok: false, error: err instanceof Error ? err.message : String(err), permanent: false };
    }
    if (!result.ok && "split" in result) {
      // Nothing was sent: each goes alone, under its own key, and only the refused one fails.
      log.warn("alert email batch refused; sending its messages one by one", { batch: batch.key, error: result.error });
      await sql.unsafe(SPLIT, [batch.key]);
      return;
    }
    await record(sql, batch.mine, result, opts);
  });
  return batches.reduce((count, b) => count + b.mine.length, 0);
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
      await record(sql, [row], { ok: false, error: HOST_PAUSED, permanent: false }, opts);
      continue;
    }
    const result = await attempt(row, opts);
    // A refused target (permanent) says nothing about the receiver's health.
    if (result.ok) opts.breaker.succeeded(target);
    else if (!result.permanent) opts.breaker.failed(target);
    await record(sql, [row], result, opts);
  }
}

async function attempt(row: Claimed, opts: Resolved): Promise<DeliveryResult> {
  try {
    if (row.channel === "webhook" && !row.webhooks)
      return { ok: false, error: webhooksRefused({ label: row.planLabel }), permanent: true };
    if (row.channel === "webhook" && row.webhookSecret) {
      return await opts.webhook.send(
        row.recipient,
        row.webhookSecret,
        row.idempotencyKey,
        webhookBody(row.idempotencyKey, row.payload),
      );
    }
    return {
      ok: false,
      error: "Not sent: the alert's channel changed before this delivery went out.",
      permanent: true,
    };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err), permanent: false };
  }
}

const OF_BATCH = `t.${n.batchKey} = $1 and t.${n.status} = 'pending'`;
/** The rows $1 as claimed at attempts $2, unless claimed again meanwhile. */
const MINE = `t.${n.id} = u.id and t.${n.attempts} = u.attempts and t.${n.status} = 'pending'`;
const CLAIMED = "from unnest($1::bigint[], $2::int[]) u(id, attempts)";
const SENT = updateSql(notifications, { status: "'sent'", sentAt: "now()", lastError: "null" }, CLAIMED, MINE);
/** Failed for good with error $3. */
const FAILED = updateSql(notifications, { status: "'failed'", lastError: "$3" }, CLAIMED, MINE);
/** Failed with error $3, retried in $4 ms. */
const RETRY = updateSql(notifications, { lastError: "$3", nextAttemptAt: inMs(4) }, CLAIMED, MINE);
/** Every pending row of batch $1 (it is not sent again) out of it, alone under its own key, due at once. */
const SPLIT = updateSql(notifications, { batchKey: `t.${n.idempotencyKey}`, nextAttemptAt: "now()" }, "", OF_BATCH);

const mine = (rows: readonly Claimed[]) => [rows.map((r) => r.id), rows.map((r) => r.attempts)];

/**
 * Records an attempt's outcome for the rows that went in it (one webhook, or an email batch's
 * rows this pass claimed), except rows claimed again meanwhile (their lease ran out). The rows
 * of a batch retry together: one delay for all of them.
 */
async function record(sql: Sql, rows: readonly Claimed[], result: DeliveryResult, opts: Resolved) {
  if (result.ok) {
    await sql.unsafe(SENT, mine(rows));
    return;
  }
  const attempts = Math.max(...rows.map((r) => r.attempts));
  const final = result.permanent || attempts >= opts.maxAttempts;
  log.warn("alert notification not delivered", {
    ids: rows.map((r) => r.id),
    channel: rows[0].channel,
    attempts,
    final,
    error: result.error,
    detail: result.detail,
  });
  if (final) {
    await sql.unsafe(FAILED, [...mine(rows), result.error]);
    return;
  }
  // Exponential backoff with jitter, so retries from one outage do not arrive together.
  const delay = Math.min(opts.maxBackoffMs, opts.backoffMs * 2 ** (attempts - 1)) * (0.5 + Math.random() / 2);
  await sql.unsafe(RETRY, [...mine(rows), result.error, delay]);
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
  const parked = await sql.unsafe<{ id: string; recipient: string; payload: AlertNotification }[]>(PARK_EMAILS, [
    EMAIL_NOT_CONFIGURED,
  ]);
  for (const n of parked) {
    const { subject, text } = renderAlertEmail(n.payload);
    log.info("alert email kept in the outbox (RESEND_API_KEY not set)", { id: n.id, to: n.recipient, subject, text });
  }
}

/**
 * Runs each lane in a loop of its own until `signal` aborts, polling every `pollMs` while it has
 * nothing due: a lane busy with slow receivers never delays the other.
 */
export async function runOutboxSender(
  sql: Sql,
  options: SenderOptions & { signal?: AbortSignal; pollMs?: number },
): Promise<void> {
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
          log.error("alert outbox pass failed", {
            channel,
            error: err instanceof Error ? err.message : String(err),
            failures,
          });
        }
        if (claimed === 0) await sleep(failures ? Math.min(30_000, pollMs * 2 ** failures) : pollMs, signal);
      }
    }),
  );
}
