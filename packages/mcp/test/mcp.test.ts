import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeKey } from "@/lib/keys/store";
import { api, baseUrl, newKey, testDb } from "@/tests/api/helpers";

const TOOLS = [
  "search",
  "find_tokens",
  "token_profile",
  "token_holders",
  "token_security",
  "token_candles",
  "wallet_profile",
  "wallet_positions",
  "wallet_launches",
  "recent_events",
  "token_score",
  "wallet_score",
  "list_alerts",
  "create_alert",
  "set_alert_status",
];

let token: string;
let wallet: string;
let indexedBlock: number;

beforeAll(async () => {
  const res = await api("/v1/tokens?sort=volume&limit=1");
  token = res.body.data[0].address;
  indexedBlock = Number(res.headers.get("x-indexed-block"));
  wallet = (await api(`/v1/events?type=swap&token_address=${token}&limit=1`)).body.data[0].wallet_address;
});

async function overHttp(key: string) {
  const client = new Client({ name: "test", version: "1.0.0" });
  const headers = { Authorization: `Bearer ${key}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl()}/mcp`), { requestInit: { headers } }));
  return client;
}

function overStdio(key: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "packages/mcp/src/bin.ts"],
    cwd: process.cwd(),
    env: {
      ...(process.env as Record<string, string>),
      ONCHAIN_INTEL_API_KEY: key,
      ONCHAIN_INTEL_BASE_URL: `${baseUrl()}/v1`,
    },
    stderr: "pipe",
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  return { client, connect: () => client.connect(transport) };
}

/** A tool's answer, parsed; fails on a tool error. */
async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  if (result.isError) throw new Error(`${name} answered an error: ${text}`);
  return JSON.parse(text);
}

async function toolError(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name} should answer a tool error`).toBe(true);
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/** Requests the key has been counted today (the API's metering). */
async function counted(keyId: string) {
  const rows = (await testDb().execute<{ n: string }>(
    sql`select coalesce(sum(requests), 0)::text as n from usage_daily where key_id = ${keyId}`,
  )) as unknown as { n: string }[];
  return Number(rows[0].n);
}

/** Calls every tool with valid arguments and checks each answer against the API. */
async function callEveryTool(client: Client) {
  const called: string[] = [];
  const run = async (name: string, args: Record<string, unknown>) => {
    called.push(name);
    const answer = await call(client, name, args);
    expect(answer.as_of_block, name).toBe(indexedBlock);
    return answer;
  };
  const found = await run("search", { query: token.slice(0, 8) });
  expect(found.results[0]).toMatchObject({
    type: "token",
    address: token,
    url: expect.stringMatching(`/tokens/${token}$`),
  });
  const clean = await run("find_tokens", { min_liquidity_usd: 1000, no_flags: true, sort: "liquidity", limit: 5 });
  const expected = await api(
    "/v1/tokens?min_liquidity_usd=1000&sort=liquidity&limit=5&exclude_flags=" +
      "wash_trading,liquidity_pulled,concentrated_ownership,sybil_cluster,smart_money_exiting",
  );
  expect(clean.tokens.map((t: { address: string }) => t.address)).toEqual(
    expected.body.data.map((t: { address: string }) => t.address),
  );
  const profile = await run("token_profile", { address: token.toUpperCase().replace("0X", "0x") });
  const score = (await api(`/v1/scores/token/${token}`)).body;
  expect(profile).toMatchObject({ address: token, risk: { score: score.risk_score, level: score.risk_level } });
  expect(profile.top_holders.length).toBeLessThanOrEqual(5);
  const holders = await run("token_holders", { address: token, limit: 3 });
  expect(holders.holders).toHaveLength(3);
  expect(holders.total).toBe((await api(`/v1/tokens/${token}/holders?limit=1`)).body.total);
  const security = await run("token_security", { address: token });
  expect(security).toMatchObject({ ...(await api(`/v1/tokens/${token}/security`)).body, url: expect.any(String) });
  const candles = await run("token_candles", { address: token, interval: "5m", limit: 6 });
  const fromApi = (await api(`/v1/tokens/${token}/ohlcv?interval=5m&limit=6`)).body.data;
  expect(candles.rows.map((r: unknown[]) => r[0])).toEqual(fromApi.map((c: { time: string }) => c.time));
  expect(candles.rows).toHaveLength(6);
  expect(candles.columns).toEqual(["time", "open", "high", "low", "close", "volume_usd", "trades"]);
  expect((await run("wallet_profile", { address: wallet })).address).toBe(wallet);
  const positions = await run("wallet_positions", { address: wallet, status: "all", limit: 5 });
  expect(positions.total).toBe((await api(`/v1/wallets/${wallet}/positions?limit=1`)).body.total);
  const [{ creator }] = await testDb().execute<{ creator: string }>(
    sql`select creator from tokens where creator is not null group by 1 order by count(*) desc, 1 limit 1`,
  );
  const launches = await run("wallet_launches", { address: creator, limit: 5 });
  const listed = (await api(`/v1/wallets/${creator}/launches?limit=5`)).body;
  expect(launches.total).toBe(listed.total);
  expect(launches.launches.map((l: { outcome: string }) => l.outcome)).toEqual(
    listed.data.map((l: { outcome: string }) => l.outcome),
  );
  expect(launches.counts.total).toBe(listed.total);
  const events = await run("recent_events", { token_address: token, type: "swap", limit: 5 });
  expect(events.events.map((e: { id: string }) => e.id)).toEqual(
    (await api(`/v1/events?token_address=${token}&type=swap&limit=5`)).body.data.map((e: { id: string }) => e.id),
  );
  expect((await run("token_score", { address: token })).score).toBe(score.risk_score);
  expect((await run("wallet_score", { address: wallet })).reputation_score).toBe(
    (await api(`/v1/scores/wallet/${wallet}`)).body.reputation_score,
  );
  const made = await run("create_alert", {
    name: "mcp test",
    conditions: { min_liquidity_usd: 50_000, exclude_flags: ["wash_trading"] },
  });
  expect(made).toMatchObject({ status: "active", channel: "email", conditions: { min_liquidity_usd: 50_000 } });
  expect((await run("set_alert_status", { alert_id: made.id, status: "paused" })).status).toBe("paused");
  const paused = await run("list_alerts", { status: "paused" });
  expect(paused.alerts.map((a: { id: string }) => a.id)).toContain(made.id);
  expect(called.sort()).toEqual([...TOOLS].sort());
}

describe("the MCP server over Streamable HTTP (/mcp)", () => {
  let key: { id: string; key: string };
  let client: Client;
  beforeAll(async () => {
    key = await newKey("api_tier");
    client = await overHttp(key.key);
  });
  afterAll(() => client?.close());

  it("lists its tools, each with a description and a JSON schema, and its prompts", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const t of tools) {
      expect(t.description?.length, t.name).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe("object");
    }
    const profile = tools.find((t) => t.name === "token_profile")!;
    expect(profile.inputSchema.required).toEqual(["address"]);
    expect(profile.description).toMatch(/as_of_block/);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(["assess_token", "assess_wallet"]);
    const prompt = await client.getPrompt({ name: "assess_token", arguments: { address: token } });
    expect(JSON.stringify(prompt.messages)).toMatch(
      /token_profile[\s\S]*token_score[\s\S]*token_holders[\s\S]*token_candles/,
    );
  });

  it("answers every tool from the API, compactly, with the block its data is as of", async () => {
    await callEveryTool(client);
  });

  it("answers an invalid argument or a refused read with a tool error, and goes on serving", async () => {
    expect(await toolError(client, "token_profile", { address: "0x1234" })).toMatch(/Invalid arguments.*address/s);
    expect(await toolError(client, "token_candles", { address: token, interval: "7m" })).toMatch(/interval/);
    expect(await toolError(client, "token_holders", { address: `0x${"0".repeat(40)}` })).toMatch(
      /^NOT_FOUND: .*\[request req_/,
    );
    expect(await toolError(client, "no_such_tool", {})).toMatch(/not found/);
    expect((await call(client, "token_score", { address: token })).address).toBe(token);
  });

  it("counts a tool call as the API requests it makes, and any other message as one", async () => {
    const before = await counted(key.id);
    await client.listTools();
    expect(await counted(key.id)).toBe(before + 1);
    await call(client, "token_holders", { address: token, limit: 1 });
    expect(await counted(key.id)).toBe(before + 2);
    await call(client, "token_profile", { address: token });
    expect(await counted(key.id)).toBe(before + 4);
    await toolError(client, "token_profile", { address: "nope" });
    expect(await counted(key.id)).toBe(before + 5);
  });

  it("refuses a revoked key with 401, at connection and at a tool call", async () => {
    const doomed = await newKey("api_tier");
    const connected = await overHttp(doomed.key);
    await revokeKey(testDb(), doomed.id);
    await expect(overHttp(doomed.key)).rejects.toThrow(/401|Unauthorized/i);
    await expect(connected.callTool({ name: "token_profile", arguments: { address: token } })).rejects.toThrow(
      /401|Unauthorized/i,
    );
    await expect(connected.listTools()).rejects.toThrow(/401|Unauthorized/i);
    const res = await fetch(`${baseUrl()}/mcp`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${doomed.key}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toMatchObject({
      code: "UNAUTHORIZED",
      request_id: res.headers.get("x-request-id"),
    });
    await connected.close();
  });

  it("answers a request without a key 401 and a GET 405, with the API's error body", async () => {
    const none = await fetch(`${baseUrl()}/mcp`, { method: "POST", body: "{}" });
    expect(none.status).toBe(401);
    expect((await none.json()).error.code).toBe("UNAUTHORIZED");
    const get = await fetch(`${baseUrl()}/mcp`, { headers: { Authorization: `Bearer ${key.key}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });
});

describe("the MCP server over stdio (npx onchain-intel-mcp)", () => {
  it("lists and answers every tool, gives tool errors for invalid arguments, and reports a revoked key", async () => {
    const key = await newKey("api_tier");
    const { client, connect } = overStdio(key.key);
    await connect();
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
      await callEveryTool(client);
      expect(await toolError(client, "wallet_profile", { address: 42 })).toMatch(/Invalid arguments/);
      await revokeKey(testDb(), key.id);
      expect(await toolError(client, "token_profile", { address: token })).toMatch(/^UNAUTHORIZED: /);
    } finally {
      await client.close();
    }
  });
});
