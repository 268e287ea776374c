import type { FilterField } from "../tokens/filter-fields";

/** The alert's fields (POST /api/alerts's body: the alert under `alert.`), as the builder names them. */
const NAMES: Record<string, string> = {
  name: "the alert name",
  webhook_url: "the webhook URL",
  notification_channel: "the delivery channel",
  key_id: "the API key",
  conditions: "the conditions",
  exclude_flags: "the excluded flags",
  kind: "the alert kind",
  wallet_address: "the wallet address",
  token_address: "the token address",
  actions: "the actions",
  min_amount_usd: "the minimum amount in USD",
  crosses: "the side of the level",
  price_usd: "the price level",
  moves: "the direction of the move",
  change_pct: "the change in percent",
  window: "the window",
};

function nameOf(field: string, fields: FilterField[]): string | null {
  const filter = fields.find((f) => f.name === field);
  return filter ? `the ${filter.label.charAt(0).toLowerCase()}${filter.label.slice(1)}` : (NAMES[field] ?? null);
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}`;

/**
 * A refusal of the alert builder's request in words: the API says "param: what is wrong"
 * ("alert.webhook_url: must be an http(s) URL"), the builder "The webhook URL must be an
 * http(s) URL." Field names inside the text become words too; a refusal that is already a
 * sentence (the alerts service's: "The webhook URL's host does not resolve.") stays as it is.
 */
export function refusalInWords(message: string, param: string | null, fields: FilterField[]): string {
  const field = param?.split(".").at(-1);
  const subject = field ? nameOf(field, fields) : null;
  const named = subject !== null && message.startsWith(`${param}: `);
  const text = (named ? message.slice(`${param}: `.length) : message).replace(
    /\b[a-z]+(?:_[a-z]+)+\b/g,
    (name) => nameOf(name, fields) ?? name,
  );
  if (!named) return sentence(text);
  return sentence(/^[a-z]/.test(text) ? `${subject} ${text}` : `${subject}: ${text}`);
}
