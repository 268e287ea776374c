import { Resend } from "resend";
import { config } from "@/lib/config";
import { describeAlertConditions, describeEvent, formatValue, headline } from "./describe";
import type { AlertNotification, DeliveryResult, MatchedToken } from "./payload";

export type RenderedEmail = { subject: string; html: string; text: string };

export type EmailTransport = {
  /** Sends once per idempotency key: a retry with the same key is answered without a second email. */
  send(to: string, email: RenderedEmail, idempotencyKey: string): Promise<DeliveryResult>;
};

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

const describeValues = (m: MatchedToken) => Object.entries(m.values).map(([k, v]) => `${VALUE_LABELS[k] ?? k} ${formatValue(k, v)}`);

/** On-chain names are anyone's choice: one line, bounded. */
const clean = (s: string, max = 80) =>
  s
    .replace(/[\s\p{Cc}\p{Cf}]+/gu, " ")
    .trim()
    .slice(0, max);

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

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
    ...items.flatMap((m, i) => [`${i + 1}. ${m.title} ${m.address}`, `   ${m.details.join(" · ")}`, `   ${tokenUrl(m)}`]),
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
        `<tr><td ${cell}><a href="${escapeHtml(tokenUrl(m))}">${escapeHtml(m.title)}</a><br><code>${m.address}</code></td>` +
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

/** Sends through the Resend SDK; `baseUrl` points it at a Resend-compatible endpoint (tests). */
export function resendTransport(opts: { apiKey: string; baseUrl?: string; from: string; timeoutMs: number }): EmailTransport {
  const resend = new Resend(opts.apiKey, opts.baseUrl ? { baseUrl: opts.baseUrl } : undefined);
  return {
    async send(to, email, idempotencyKey) {
      const { error } = await resend.emails.send(
        { from: opts.from, to, subject: email.subject, html: email.html, text: email.text },
        { idempotencyKey, signal: AbortSignal.timeout(opts.timeoutMs) },
      );
      if (!error) return { ok: true };
      return {
        ok: false,
        error: PERMANENT_STATUSES.has(error.statusCode ?? 0)
          ? `The email service refused this message (${error.message}). Check the alert's email address.`
          : `The email service did not take the message (${error.statusCode ?? "no response"}: ${error.message}); we retry.`,
        // The key was already used for different content: a message went out under it.
        permanent: PERMANENT_STATUSES.has(error.statusCode ?? 0) || error.name === "invalid_idempotent_request",
      };
    },
  };
}

/** The configured email transport; null without RESEND_API_KEY (messages then stay in the outbox). */
export function emailTransportFromConfig(timeoutMs = 15_000): EmailTransport | null {
  if (!config.RESEND_API_KEY) return null;
  return resendTransport({ apiKey: config.RESEND_API_KEY, baseUrl: config.RESEND_BASE_URL, from: config.EMAIL_FROM, timeoutMs });
}
