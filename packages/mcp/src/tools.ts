import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import {
  ALERT_LIST_STATUSES,
  CANDLE_INTERVALS,
  type CallOptions,
  EVENT_TYPES,
  type OnchainIntel,
  OnchainIntelError,
  POSITION_STATUSES,
  RISK_FLAGS,
  TOKEN_SORTS,
} from "onchain-intel";
import { z } from "zod";
import * as compact from "./compact.ts";

const address = (what: string) =>
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be 0x followed by 40 hex characters")
    .describe(`${what} address (0x + 40 hex characters, any case)`);
const limit = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).describe(`How many to return, 1 to ${max} (default ${fallback})`);
const page = z.number().int().min(1).default(1).describe("Page number, from 1");

/** Every answer says the block its data is as of: the API's X-Indexed-Block. */
const AS_OF = "Figures are as of the indexed block (as_of_block); 24 h and 1 h windows end at that block.";

const filterFields = {
  min_liquidity_usd: z.number().min(0).optional().describe("Minimum liquidity in USD over the token's quote pools"),
  min_market_cap_usd: z.number().min(0).optional().describe("Minimum market cap in USD"),
  max_market_cap_usd: z.number().min(0).optional().describe("Maximum market cap in USD"),
  max_risk_score: z.number().min(0).max(100).optional().describe("Maximum risk score, 0 (safest) to 100"),
  min_holder_growth_1h_pct: z
    .number()
    .optional()
    .describe("Minimum growth of the holder count over the past hour, in percent"),
  max_age_hours: z.number().min(0).optional().describe("Maximum age since the token's creation block, in hours"),
  exclude_flags: z.array(z.enum(RISK_FLAGS)).optional().describe("Leave out tokens raising any of these risk flags"),
};

export type ToolContext = { client: OnchainIntel; links: compact.Links };

/** The indexed block of the responses a tool call read (the lowest, should two differ). */
function asOf() {
  let block: number | null = null;
  const onResponse = (response: Response) => {
    const b = Number(response.headers.get("x-indexed-block"));
    if (response.headers.has("x-indexed-block") && Number.isSafeInteger(b))
      block = block === null ? b : Math.min(block, b);
  };
  return { call: { onResponse } satisfies CallOptions, block: () => block };
}

const text = (value: unknown): CallToolResult => ({ content: [{ type: "text", text: JSON.stringify(value) }] });

/** An API refusal as a tool error the agent can act on: its code, the parameter, the request id. */
function apiError(err: OnchainIntelError): CallToolResult {
  const retry = err.retryAfter === null ? "" : ` Retry after ${err.retryAfter} s.`;
  const param = err.param ? ` (parameter ${err.param})` : "";
  return {
    isError: true,
    content: [{ type: "text", text: `${err.code}${param}: ${err.message}${retry} [request ${err.requestId}]` }],
  };
}

/** Runs a tool's read: its compact answer with as_of_block, or the API's refusal as a tool error. */
function answer<A>(read: (args: A, call: CallOptions) => Promise<object>) {
  return async (args: A): Promise<CallToolResult> => {
    const meta = asOf();
    try {
      const result = await read(args, meta.call);
      return text({ ...result, as_of_block: meta.block() });
    } catch (err) {
      if (err instanceof OnchainIntelError) return apiError(err);
      throw err;
    }
  };
}

/** A tool: its name, description and JSON schema (built once), and its read of the API. */
function tool<S extends z.ZodRawShape>(
  name: string,
  config: { title: string; description: string; inputSchema: S; annotations: ToolAnnotations },
  read: (ctx: ToolContext, args: z.infer<z.ZodObject<S>>, call: CallOptions) => Promise<object>,
) {
  return (server: McpServer, ctx: ToolContext) => {
    const run = answer((args: z.infer<z.ZodObject<S>>, call) => read(ctx, args, call));
    // The SDK validates the arguments against `inputSchema` first; its callback type cannot follow a generic shape.
    server.registerTool(name, config, run as Parameters<typeof server.registerTool>[2]);
  };
}

const readOnly = { readOnlyHint: true, openWorldHint: false };

/** The tools: one per question an agent asks, each one API request unless its description says otherwise. */
const TOOLS = [
  tool(
    "search",
    {
      title: "Search tokens and wallets",
      description:
        `Find tokens by the start of their symbol, name or address, and wallets by the start of their address. ` +
        `Tokens come first (an exact symbol or address match, then by liquidity and 24 h volume), then wallets by ` +
        `trade count. USD figures: price, liquidity over the token's quote pools, volume over the 24 h. ${AS_OF}`,
      inputSchema: {
        query: z.string().min(1).max(100).describe("Start of a symbol, name or 0x address"),
        type: z.enum(["all", "token", "wallet"]).default("all").describe("What to search"),
        limit: limit(20, 10),
      },
      annotations: readOnly,
    },
    async ({ client, links }, { query, type, limit }, call) => {
      const found = await client.search({ q: query, type, limit }, call);
      return { total: found.total, results: found.data.map((hit) => compact.searchHit(hit, links)) };
    },
  ),
  tool(
    "find_tokens",
    {
      title: "Find tokens by filters",
      description:
        `List tokens matching filters, sorted. Each has: age_hours since creation, price_usd, change_1h_pct and ` +
        `change_24h_pct (percent), liquidity_usd, volume_24h_usd (USD over the 24 h), market_cap_usd, holders ` +
        `(real holders), risk_score (0-100, higher is riskier), risk_flags. Set no_flags to keep only tokens with ` +
        `no risk flag. ${AS_OF}`,
      inputSchema: {
        ...filterFields,
        no_flags: z.boolean().default(false).describe("Only tokens that raise no risk flag"),
        sort: z
          .enum(TOKEN_SORTS)
          .default("trending")
          .describe("Order: trending, newest, liquidity, volume, market_cap, risk_asc, ... (_asc reverses)"),
        limit: limit(50, 10),
        page,
      },
      annotations: readOnly,
    },
    async ({ client, links }, { no_flags, exclude_flags, ...query }, call) => {
      const list = await client.tokens.list({ ...query, exclude_flags: no_flags ? RISK_FLAGS : exclude_flags }, call);
      return { total: list.total, page: list.page, tokens: list.data.map((t) => compact.tokenRow(t, links)) };
    },
  ),
  tool(
    "token_profile",
    {
      title: "Token profile with risk",
      description:
        `A token's market and risk in one answer (2 API requests): price_usd and its change over 5 min, 1 h and 24 ` +
        `h (percent); liquidity_usd; volume over 1 h and 24 h (USD); market cap and FDV (USD); swaps (buys, sells) ` +
        `and distinct traders over 24 h; holders; risk score 0-100 (higher is riskier) with its level, dimensions ` +
        `and each raised flag with the metrics, thresholds and wallets behind it; the 5 largest holders (percent ` +
        `of supply). ${AS_OF}`,
      inputSchema: { address: address("Token") },
      annotations: readOnly,
    },
    async ({ client, links }, { address }, call) => {
      const [profile, score] = await Promise.all([
        client.tokens.get(address, call),
        client.scores.token(address, call),
      ]);
      return compact.tokenProfile(profile, score, links);
    },
  ),
  tool(
    "token_holders",
    {
      title: "Token holders",
      description:
        "A token's real holders (not pools, burn addresses or the token itself), largest first: holding_pct " +
        "(percent of the total supply), " +
        "classification, reputation_score (0-100), net_activity over the 24 h (accumulating, distributing, " +
        "holding, exited), and the exact total. " +
        AS_OF,
      inputSchema: { address: address("Token"), limit: limit(50, 20), page },
      annotations: readOnly,
    },
    async ({ client, links }, { address, limit, page }, call) => ({
      ...compact.holders(await client.tokens.holders(address, { limit, page }, call)),
      url: links.token(address),
    }),
  ),
  tool(
    "token_security",
    {
      title: "Can the token be sold?",
      description:
        "A token's security checks, each with the block it ran at and ok or unknown (with the reason; unknown " +
        "is never safe): honeypot (yes when a simulated sell reverts or returns almost nothing), buy and sell " +
        "tax (percent), owner (active, renounced or none), whether the code can mint, pause, blacklist or change " +
        "fees, whether it is a proxy, and the main pool's liquidity burnt, locked (in which locker, on what " +
        "terms) and free (percent).",
      inputSchema: { address: address("Token") },
      annotations: readOnly,
    },
    async ({ client, links }, { address }, call) => ({
      ...(await client.tokens.security(address, call)),
      url: links.token(address),
    }),
  ),
  tool(
    "token_candles",
    {
      title: "Token price candles",
      description:
        "USD candles of a token from its swaps, oldest first, as rows of [time (interval start, UTC), open, " +
        "high, low, close (USD per token), " +
        "volume_usd, trades]. No candles before the first swap; an interval without swaps carries the close " +
        "forward (0 trades). " +
        `By default the last \`limit\` candles up to the indexed block. ${AS_OF}`,
      inputSchema: {
        address: address("Token"),
        interval: z.enum(CANDLE_INTERVALS).default("1h").describe("Candle length"),
        limit: limit(200, 48),
        from: z.iso.datetime({ offset: true }).optional().describe("Candles starting at or after this time (ISO 8601)"),
        to: z.iso.datetime({ offset: true }).optional().describe("Candles starting at or before this time (ISO 8601)"),
      },
      annotations: readOnly,
    },
    async ({ client, links }, { address, ...query }, call) => {
      const candles = await client.tokens.ohlcv(address, query, call);
      return {
        interval: query.interval,
        columns: ["time", "open", "high", "low", "close", "volume_usd", "trades"],
        rows: candles.data.map((c) => [
          c.time,
          compact.usd(c.open),
          compact.usd(c.high),
          compact.usd(c.low),
          compact.usd(c.close),
          compact.usd(c.volume_usd),
          c.trades,
        ]),
        total: candles.total,
        url: links.token(address),
      };
    },
  ),
  tool(
    "wallet_profile",
    {
      title: "Wallet profile",
      description:
        `A wallet's behavioural classification, reputation score (0-100) with its confidence, estimated PnL in USD ` +
        `(realized plus unrealized over every position, at current prices) with its confidence, preferred sector, ` +
        `trade count, and its 10 largest holdings (USD at current prices). ${AS_OF}`,
      inputSchema: { address: address("Wallet") },
      annotations: readOnly,
    },
    async ({ client, links }, { address }, call) =>
      compact.walletProfile(await client.wallets.get(address, call), links),
  ),
  tool(
    "wallet_positions",
    {
      title: "Wallet positions",
      description:
        "A wallet's positions per token: open ones by value, then closed ones by realized PnL. USD figures: " +
        "value at the current price, " +
        "average-cost basis of what is held, realized PnL of the sells, unrealized PnL (value less cost basis), " +
        "their sum. " +
        AS_OF,
      inputSchema: {
        address: address("Wallet"),
        status: z.enum(POSITION_STATUSES).default("all").describe("open, closed or all"),
        limit: limit(50, 20),
        page,
      },
      annotations: readOnly,
    },
    async ({ client, links }, { address, ...query }, call) => ({
      ...compact.positions(await client.wallets.positions(address, query, call)),
      url: links.wallet(address),
    }),
  ),
  tool(
    "wallet_launches",
    {
      title: "Wallet launches",
      description:
        "The tokens a wallet created (what a token's creator did before), newest first, each with its outcome: " +
        "trading (swapped in the last 24 h, or younger), liquidity_pulled (its liquidity_pulled flag is raised) or " +
        "abandoned (no liquidity left, or no swap in the last 24 h); and how many of each. " +
        AS_OF,
      inputSchema: { address: address("Wallet"), limit: limit(50, 20), page },
      annotations: readOnly,
    },
    async ({ client, links }, { address, ...query }, call) => {
      const [list, profile] = await Promise.all([
        client.wallets.launches(address, query, call),
        client.wallets.get(address, call),
      ]);
      return { counts: profile.launches, ...compact.launches(list, links), url: links.wallet(address) };
    },
  ),
  tool(
    "recent_events",
    {
      title: "Recent on-chain events",
      description:
        `The newest swaps, liquidity adds and removes, and transfers, newest first, optionally of one token or ` +
        `wallet. amount_usd is the event's value in USD at its time; direction is the trader's side of a swap; ` +
        `confirmed events are at least the chain's finality depth below the indexed block and will not be removed ` +
        `by a reorg. ${AS_OF}`,
      inputSchema: {
        type: z.enum(EVENT_TYPES).optional().describe("Only this event type"),
        token_address: address("Token").optional(),
        wallet_address: address("Wallet").optional(),
        since: z.iso.datetime({ offset: true }).optional().describe("Only events after this time (ISO 8601)"),
        limit: limit(50, 20),
      },
      annotations: readOnly,
    },
    async ({ client, links }, query, call) => {
      const list = await client.events.list(query, call);
      return { total: list.total, events: list.data.map(compact.event), url: links.events() };
    },
  ),
  tool(
    "token_score",
    {
      title: "Token risk score breakdown",
      description:
        "How a token's risk score (0-100, higher is riskier; levels low <25, medium <50, high <75, critical) is " +
        "made: each dimension (0-100) " +
        "and its weight, the weighted score, the floors that raised it, dimensions without data and why, each " +
        "raised flag's evidence " +
        "(metrics as fractions 0-1 unless named otherwise, the thresholds they crossed, wallets), and a summary " +
        "of the top holders. " +
        AS_OF,
      inputSchema: { address: address("Token") },
      annotations: readOnly,
    },
    async ({ client, links }, { address }, call) => compact.tokenScore(await client.scores.token(address, call), links),
  ),
  tool(
    "wallet_score",
    {
      title: "Wallet reputation score breakdown",
      description:
        `How a wallet's reputation score (0-100, higher is better) is made: win_rate (a fraction 0-1 of closed ` +
        `positions in profit), entry timing, consistency and drawdown dimensions (0-100), their weights, the ` +
        `weighted score, the caps that lowered it, dimensions without data, and the closed positions and trades it ` +
        `rests on. ${AS_OF}`,
      inputSchema: { address: address("Wallet") },
      annotations: readOnly,
    },
    async ({ client, links }, { address }, call) =>
      compact.walletScore(await client.scores.wallet(address, call), links),
  ),
  tool(
    "list_alerts",
    {
      title: "List alerts",
      description:
        "The API key's alerts: id, name, status, the token conditions they fire on, the channel, when each last fired.",
      inputSchema: {
        status: z.enum(ALERT_LIST_STATUSES).default("active").describe("active, paused or all"),
        limit: limit(50, 20),
        page,
      },
      annotations: readOnly,
    },
    async ({ client, links }, query, call) => {
      const list = await client.alerts.list(query, call);
      return { total: list.total, alerts: list.data.map((a) => compact.alert(a, links)) };
    },
  ),
  tool(
    "create_alert",
    {
      title: "Create an alert",
      description:
        "Create an alert that notifies (email by default; webhook on Pro and API Tier) when a token newly matches " +
        "the conditions, evaluated at each indexed block. Conditions use the same units as find_tokens. Returns " +
        "the alert's id (a webhook alert's signing secret is shown only here).",
      inputSchema: {
        name: z.string().min(1).max(200).describe("A label for the alert"),
        conditions: z.object(filterFields).describe("At least one condition"),
        notification_channel: z
          .enum(["email", "webhook"])
          .default("email")
          .describe("email, or webhook (Pro and API Tier)"),
        webhook_url: z.url().optional().describe("Where to POST, for the webhook channel"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ client, links }, body, call) => compact.alert(await client.alerts.create(body, call), links),
  ),
  tool(
    "set_alert_status",
    {
      title: "Pause or resume an alert",
      description: "Pause an alert (it stops notifying) or resume it.",
      inputSchema: {
        alert_id: z
          .string()
          .regex(/^alrt_[0-9A-Za-z]{20}$/, "is not an alert id")
          .describe("The alert's id (alrt_...)"),
        status: z.enum(["paused", "active"]).describe("paused to pause, active to resume"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ client, links }, { alert_id, status }, call) =>
      compact.alert(await client.alerts.update(alert_id, { status }, call), links),
  ),
];

export function registerTools(server: McpServer, ctx: ToolContext) {
  for (const register of TOOLS) register(server, ctx);
}
