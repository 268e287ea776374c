import { type ErrorResponse, Resend } from "resend";
import { config } from "@/lib/config";
import { describeAlertConditions, describeEvent, formatValue, headline } from "./describe";
import type { AlertNotification, DeliveryResult, MatchedToken } from "./payload";

export type RenderedEmail = { subject: string; html: string; text: string };

/** An email to send: `ref` (the notification's idempotency key) goes in its X-Entity-Ref-ID header. */
export type OutgoingEmail = { to: string; email: RenderedEmail; ref: string };

/**
 * An attempt's outcome. `split`: the service refused the batch as a whole for one of its messages
 * (nothing was sent): sent one by one, the others go and that one fails alone.
 */
export type EmailResult = DeliveryResult | { ok: false; error: string; permanent: true; split: true };

export type EmailTransport = {
  /**
   * Sends `emails` in one call (a batch for more than one, at most EMAILS_PER_CALL), once per
   * idempotency key: a retry of the same call under the same key is answered without sending again.
   */
  send(emails: readonly OutgoingEmail[], idempotencyKey: string): Promise<EmailResult>;
};

/** Messages in one call: the most Resend's batch endpoint takes. */
export const EMAILS_PER_CALL = 100;

/** The dashboard's public origin, for links in messages. */
export const dashboardUrl = () => config.appOrigin;

const VALUE_LABELS: Record<string, string> = {
  liquidity_usd: "Liquidity",
  market_cap_usd: "Market cap",
  risk_score: "Risk score",
  holder_growth_1h_pct: "Holder growth (1 h)",
  age_hours: "Age",
  risk_flags: "Risk flags",
  price_usd: "Price",
  price_change_5m_pct: "Price change (5 min)",
  price_change_1h_pct: "Price change (1 h)",
  price_change_24h_pct: "Price change (24 h)",
};

const describeValues = (m: MatchedToken) =>
  Object.entries(m.values).map(([k, v]) => `${VALUE_LABELS[k] ?? k} ${formatValue(k, v)}`);

/** On-chain names are anyone's choice: one line, bounded. */
const clean = (s: string, max = 80) =>
  s
    .replace(/[\s\p{Cc}\p{Cf}]+/gu, " ")
    .trim()
    .slice(0, max);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** One listed thing of a message: a token that newly matches, or an event. */
type Item = { title: string; address: string; details: string[]; token: string };

/** A notification's listed tokens or events (on-chain text cleaned), and how many it left unlisted. */
function itemsOf(n: AlertNotification): { items: Item[]; unlisted: number } {
  const title = (symbol: string, name: string) => `${clean(symbol, 20)} (${clean(name)})`;
  if (n.events) {
    const items = n.events.map((e) => ({
      title: describeEvent(e, title(e.symbol, e.name)),
      address: e.token_address,
      details: [`Block ${e.block_number} · ${e.timestamp} · tx ${e.tx_hash}`],
      token: e.token_address,
    }));
    return { items, unlisted: (n.total_events ?? items.length) - items.length };
  }
  const items = n.matches.map((m) => ({
    title: title(m.symbol, m.name),
    address: m.address,
    details: describeValues(m),
    token: m.address,
  }));
  return { items, unlisted: n.total_matches - items.length };
}

/** The alert email: its name and conditions, each new match or event (with the values behind a match), links. */
export function renderAlertEmail(n: AlertNotification, appUrl = dashboardUrl()): RenderedEmail {
  const name = clean(n.alert.name, 120);
  const count = headline(n);
  const alertsUrl = `${appUrl}/alerts`;
  const tokenUrl = (m: Item) => `${appUrl}/tokens/${m.token}`;
  const conditions = describeAlertConditions(n.alert.kind, n.alert.conditions);
  const { items, unlisted } = itemsOf(n);

  const text = [
    `Your alert "${name}" has ${count}.`,
    "",
    "Conditions:",
    ...conditions.map((c) => `- ${c}`),
    "",
    ...items.flatMap((m, i) => [
      `${i + 1}. ${m.title} ${m.address}`,
      `   ${m.details.join(" · ")}`,
      `   ${tokenUrl(m)}`,
    ]),
    ...(unlisted > 0 ? ["", `…and ${unlisted} more.`] : []),
    "",
    `Manage your alerts: ${alertsUrl}`,
  ].join("\n");

  const cell = 'style="padding:6px 10px;border-bottom:1px solid #e5e7eb;vertical-align:top"';
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111827">
<p>Your alert <strong>${escapeHtml(name)}</strong> has ${count}.</p>
<p>Conditions:</p><ul>${conditions.map((c) => `<li>${escapeHtml(c)}</li>`).join("")}</ul>
<table style="border-collapse:collapse">${items
    .map(
      (m) =>
        `<tr><td ${cell}><a href="${escapeHtml(tokenUrl(m))}">${escapeHtml(m.title)}</a>` +
        `<br><code>${m.address}</code></td>` +
        `<td ${cell}>${m.details.map(escapeHtml).join("<br>")}</td></tr>`,
    )
    .join("\n")}</table>
${unlisted > 0 ? `<p>…and ${unlisted} more.</p>` : ""}
<p><a href="${escapeHtml(alertsUrl)}">Manage your alerts</a></p>
</body></html>`;

  return { subject: `Alert "${clean(name, 80)}": ${count}`, html, text };
}

/** Resend statuses that no retry can change: the message itself is refused. */
const PERMANENT_STATUSES = new Set([400, 404, 422]);

/**
 * Sends through the Resend SDK, one email through POST /emails and more through POST /emails/batch
 * (strict validation: all or nothing), each with the notification's key in X-Entity-Ref-ID, which
 * also keeps mail clients from threading alerts under one subject. `baseUrl` points it at a
 * Resend-compatible endpoint (tests).
 */
export function resendTransport(opts: {
  apiKey: string;
  baseUrl?: string;
  from: string;
  timeoutMs: number;
}): EmailTransport {
  const resend = new Resend(opts.apiKey, opts.baseUrl ? { baseUrl: opts.baseUrl } : undefined);
  const message = ({ to, email, ref }: OutgoingEmail) => ({
    from: opts.from,
    to,
    subject: email.subject,
    html: email.html,
    text: email.text,
    headers: { "X-Entity-Ref-ID": ref },
  });
  return {
    async send(emails, idempotencyKey) {
      const request = { idempotencyKey, signal: AbortSignal.timeout(opts.timeoutMs) };
      let error: ErrorResponse | null;
      if (emails.length === 1) ({ error } = await resend.emails.send(message(emails[0]), request));
      else ({ error } = await resend.batch.send(emails.map(message), request));
      if (!error) return { ok: true };
      const refused = PERMANENT_STATUSES.has(error.statusCode ?? 0);
      if (refused && emails.length > 1) {
        const why = `The email service refused the batch (${error.message}).`;
        return { ok: false, error: why, permanent: true, split: true };
      }
      return {
        ok: false,
        error: refused
          ? `The email service refused this message (${error.message}). Check the alert's email address.`
          : `The email service did not take the message (${error.statusCode ?? "no response"}: ${error.message}); ` +
            "we retry.",
        // The key was already used for different content: a message went out under it.
        permanent: refused || error.name === "invalid_idempotent_request",
      };
    },
  };
}

/** The configured email transport; null without RESEND_API_KEY (messages then stay in the outbox). */
export function emailTransportFromConfig(timeoutMs = 15_000): EmailTransport | null {
  if (!config.RESEND_API_KEY) return null;
  return resendTransport({
    apiKey: config.RESEND_API_KEY,
    baseUrl: config.RESEND_BASE_URL,
    from: config.EMAIL_FROM,
    timeoutMs,
  });
}
