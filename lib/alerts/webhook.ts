import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { AlertNotification, DeliveryResult } from "./payload";
import { guardedLookup, PrivateTargetError } from "./webhook-target";

/**
 * Webhook deliveries: a JSON POST with
 *   Webhook-Id         the notification's idempotency key; the same on every retry, so receivers
 *                      dedupe on it (a crash between sending and recording sends it again)
 *   Webhook-Timestamp  Unix seconds of the attempt
 *   Webhook-Signature  v1=<hex HMAC-SHA256 of `${timestamp}.${body}` keyed with the alert's
 *                      whsec_… secret as given>; several space-separated entries may appear
 * Receivers verify with verifyWebhookSignature and reject timestamps outside a tolerance, so a
 * captured request cannot be replayed later.
 */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function webhookBody(id: string, payload: AlertNotification): string {
  return JSON.stringify({ id, ...payload });
}

export function signWebhook(secret: string, timestamp: string, body: string | Buffer): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex");
}

export function webhookHeaders(id: string, secret: string, body: string, nowMs = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  return {
    "content-type": "application/json",
    "user-agent": "onchain-intel-webhooks/1",
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1=${signWebhook(secret, timestamp, body)}`,
  };
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * True when `body` (the raw request body) carries a valid signature by `secret` and a timestamp
 * within `toleranceSeconds` of now, either way.
 */
export function verifyWebhookSignature(
  secret: string,
  headers: HeaderBag,
  body: string | Buffer,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
  nowMs = Date.now(),
): boolean {
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signatures) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, timestamp, body), "hex");
  return signatures.split(" ").some((s) => {
    const m = /^v1=([0-9a-f]{64})$/.exec(s);
    return m !== null && timingSafeEqual(Buffer.from(m[1], "hex"), expected);
  });
}

export type WebhookTransport = {
  send(url: string, secret: string, id: string, body: string): Promise<DeliveryResult>;
};

/** Delivery failures in words the alert's owner can act on (shown as a delivery's last_error). */
export const WEBHOOK_ERRORS = {
  invalidUrl: "The webhook URL is not a valid URL. Edit the alert and enter a full http(s) URL.",
  notPublic:
    "The webhook host does not resolve to public internet addresses only, so nothing was sent. " +
    "Use a publicly reachable host.",
  unreachable:
    "Your webhook host could not be reached (name lookup, connection or TLS failed). " +
    "Check the URL and that the server is up; we retry.",
  status: (status: number) =>
    `Your webhook answered HTTP ${status}; it must answer 2xx. Check the endpoint's logs; we retry.`,
  noAnswer: (timeoutMs: number) =>
    `Your webhook did not answer within ${timeoutMs / 1000} s. Answer at once and do slow work afterwards; we retry.`,
};

class NoAnswer extends Error {
  constructor(timeoutMs: number) {
    super(WEBHOOK_ERRORS.noAnswer(timeoutMs));
  }
}

/**
 * POSTs over node:http(s) rather than fetch, for its `lookup` hook: the public-address rule is
 * enforced on the connection itself. Redirects are not followed; any non-2xx answer is retried.
 * Failures read the same to the alert's owner whatever the target's network said (no internal
 * addresses or names, which would map the network); `detail` keeps the cause for the log.
 */
export function webhookTransport(opts: { timeoutMs: number; allowPrivate?: boolean }): WebhookTransport {
  return {
    async send(url, secret, id, body) {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return { ok: false, error: WEBHOOK_ERRORS.invalidUrl, permanent: true };
      }
      try {
        const lookup = guardedLookup(target, opts.allowPrivate);
        const status = await post(target, webhookHeaders(id, secret, body), body, lookup, opts.timeoutMs);
        if (status >= 200 && status < 300) return { ok: true };
        return { ok: false, error: WEBHOOK_ERRORS.status(status), permanent: false };
      } catch (err) {
        const detail = err instanceof Error ? err.message : String(err);
        if (err instanceof PrivateTargetError)
          return { ok: false, error: WEBHOOK_ERRORS.notPublic, detail, permanent: true };
        if (err instanceof NoAnswer) return { ok: false, error: err.message, permanent: false };
        return { ok: false, error: WEBHOOK_ERRORS.unreachable, detail, permanent: false };
      }
    },
  };
}

/** Resolves with the status as soon as it arrives; the response body is drained and ignored. */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  lookup: http.RequestOptions["lookup"],
  timeoutMs: number,
) {
  const request = url.protocol === "https:" ? https.request : http.request;
  return new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        lookup,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        res.on("error", () => {});
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", (err) => reject(err.name === "AbortError" ? new NoAnswer(timeoutMs) : err));
    req.end(body);
  });
}
