import type { LiveAddresses } from "./examples";

/** What an SDK line fills in: live addresses, and a placeholder where none is known. */
type Fill = { token: string; wallet: string };

/**
 * The SDK call of each operation, as the docs page shows it beside the curl line (keyed
 * "METHOD /path" as in the OpenAPI document); a test checks every operation has one and that
 * each names a method of the client.
 */
const SDK_CALLS: Record<string, (a: Fill) => string> = {
  "GET /tokens": () =>
    'const fresh = intel.tokens.list({ min_liquidity_usd: 10_000, max_age_hours: 24, sort: "volume" });\n' +
    "for await (const t of fresh) console.log(t.symbol, t.liquidity_usd);",
  "GET /tokens/{address}": (a) => `const token = await intel.tokens.get("${a.token}");`,
  "GET /tokens/{address}/ohlcv": (a) =>
    `const candles = await intel.tokens.ohlcv("${a.token}", { interval: "5m", limit: 288 });`,
  "GET /tokens/{address}/holders": (a) =>
    `for await (const h of intel.tokens.holders("${a.token}", { limit: 200 })) console.log(h.address, h.holding_pct);`,
  "GET /tokens/{address}/pools": (a) => `const pools = await intel.tokens.pools("${a.token}");`,
  "GET /tokens/{address}/security": (a) => `const security = await intel.tokens.security("${a.token}");`,
  "GET /search": () => 'const hits = await intel.search({ q: "pep", type: "token" });',
  "GET /wallets/{address}": (a) => `const wallet = await intel.wallets.get("${a.wallet}");`,
  "GET /wallets/{address}/positions": (a) =>
    `const open = await intel.wallets.positions("${a.wallet}", { status: "open" });`,
  "GET /wallets/{address}/launches": (a) =>
    `for await (const l of intel.wallets.launches("${a.wallet}")) console.log(l.token_symbol, l.outcome);`,
  "GET /wallets/{address}/events": (a) => `const events = await intel.wallets.events("${a.wallet}", { type: "swap" });`,
  "GET /events": (a) =>
    `for await (const e of intel.events.list({ token_address: "${a.token}", order: "asc" })) ` +
    "console.log(e.id, e.type);",
  "GET /events/stream": (a) =>
    `for await (const e of intel.events.stream({ token_address: "${a.token}" })) console.log(e.id, e.type);`,
  "GET /scores/wallet/{address}": (a) => `const score = await intel.scores.wallet("${a.wallet}");`,
  "GET /scores/token/{address}": (a) => `const score = await intel.scores.token("${a.token}");`,
  "GET /alerts": () =>
    'for await (const alert of intel.alerts.list({ status: "all" })) console.log(alert.id, alert.name);',
  "POST /alerts": () =>
    "const conditions = { min_liquidity_usd: 10_000, max_risk_score: 40 };\n" +
    'const alert = await intel.alerts.create({ name: "fresh and liquid", conditions });',
  "GET /alerts/{id}": () => "const alert = await intel.alerts.get(ALERT_ID);",
  "PATCH /alerts/{id}": () =>
    "await intel.alerts.pause(ALERT_ID); // or .resume, or .update(ALERT_ID, { name, conditions, ... })",
  "DELETE /alerts/{id}": () => "await intel.alerts.delete(ALERT_ID);",
  "GET /status": () => "const status = await intel.status();",
};

export const SDK_OPERATIONS = Object.keys(SDK_CALLS);

/** The client's setup, shown once on the page. */
export const sdkSetup = (serverUrl: string) =>
  'import { OnchainIntel } from "onchain-intel";\n' +
  `const intel = new OnchainIntel({ apiKey: KEY, baseUrl: "${serverUrl}" });`;

/** The SDK line of an operation, or undefined when the SDK has none. */
export function sdkLine(method: string, path: string, live: LiveAddresses): string | undefined {
  return SDK_CALLS[`${method.toUpperCase()} ${path}`]?.({
    token: live.token ?? "0xTOKEN",
    wallet: live.wallet ?? "0xWALLET",
  });
}
