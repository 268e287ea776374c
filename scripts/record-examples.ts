/**
 * `npm run examples:record`: the example responses of the OpenAPI document (lib/api/examples.json),
 * recorded from the real API: a production server over the API tests' fixture data, one request
 * per operation, lists cut to their first two items. app/v1/document.test.ts checks that every
 * operation has one and that each validates against its response schema.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { connect, createDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { buildIfStale } from "@/scripts/embedded/web";
import { loadFixture } from "@/scripts/fixtures";
import { createTestDatabase } from "@/tests/setup/database";
import { startAppServer } from "@/tests/setup/server";

const say = (s: string) => console.error(`[examples] ${s}`);
const db = await createTestDatabase("oci_examples");
await runMigrations(db.url);
await loadFixture(db.url, { size: "small", seed: 7 });
const s = connect(db.url, { max: 2 });
const key = await createKey(createDb(s), await ensureAccount(createDb(s), null, "api_tier"), "examples");
const one = async (q: string) => Object.values((await s.unsafe(q))[0])[0] as string;
const token = await one(
  "select token_address from events where type = 'swap' group by 1 order by count(*) desc, 1 limit 1",
);
const wallet = await one("select wallet from wallet_positions group by 1 order by count(*) desc, 1 limit 1");
const creator = await one(
  "select creator from tokens where creator is not null group by 1 order by count(*) desc, 1 limit 1",
);
const symbol = await one(`select symbol from tokens where address = '${token}'`);

await buildIfStale(say);
const server = await startAppServer({ DATABASE_URL: db.url, LOG_LEVEL: "warn" });

/** Lists keep their first two items, so an example reads at a glance. */
const trim = (body: unknown): unknown => {
  if (Array.isArray(body)) return body.slice(0, 2).map(trim);
  if (body && typeof body === "object") return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, trim(v)]));
  return body;
};

const examples: Record<string, { request: string; status: number; body: unknown }> = {};
async function record(
  operation: string,
  request: string,
  init: { method?: string; body?: unknown; key?: boolean } = {},
) {
  const res = await fetch(`${server.baseUrl}${request}`, {
    method: init.method ?? "GET",
    headers: {
      ...(init.key === false ? {} : { Authorization: `Bearer ${key.key}` }),
      ...(init.body ? { "Content-Type": "application/json" } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const body = res.status === 204 ? null : await res.json();
  if (res.status >= 300) throw new Error(`${operation}: ${res.status} ${JSON.stringify(body)}`);
  examples[operation] = { request, status: res.status, body: trim(body) };
  return body;
}

try {
  await record("GET /tokens", "/v1/tokens?sort=volume&limit=2");
  await record("GET /tokens/{address}", `/v1/tokens/${token}`);
  await record("GET /tokens/{address}/ohlcv", `/v1/tokens/${token}/ohlcv?interval=1h&limit=2`);
  await record("GET /tokens/{address}/holders", `/v1/tokens/${token}/holders?limit=2`);
  await record("GET /tokens/{address}/pools", `/v1/tokens/${token}/pools?limit=2`);
  await record("GET /tokens/{address}/security", `/v1/tokens/${token}/security`);
  await record("GET /search", `/v1/search?q=${encodeURIComponent(symbol.slice(0, 2).toLowerCase())}&limit=2`);
  await record("GET /wallets/{address}", `/v1/wallets/${wallet}`);
  await record("GET /wallets/{address}/positions", `/v1/wallets/${wallet}/positions?limit=2`);
  await record("GET /wallets/{address}/launches", `/v1/wallets/${creator}/launches?limit=2`);
  await record("GET /wallets/{address}/events", `/v1/wallets/${wallet}/events?limit=2`);
  await record("GET /events", "/v1/events?type=swap&limit=2");
  await record("GET /scores/wallet/{address}", `/v1/scores/wallet/${wallet}`);
  await record("GET /scores/token/{address}", `/v1/scores/token/${token}`);
  const created = (await record("POST /alerts", "/v1/alerts", {
    method: "POST",
    body: {
      name: "fresh and liquid",
      conditions: { max_age_hours: 24, min_liquidity_usd: 50000, exclude_flags: ["liquidity_pulled"] },
    },
  })) as { id: string };
  await record("GET /alerts", "/v1/alerts?limit=2");
  await record("GET /alerts/{id}", `/v1/alerts/${created.id}`);
  await record("PATCH /alerts/{id}", `/v1/alerts/${created.id}`, { method: "PATCH", body: { status: "paused" } });
  await record("GET /status", "/v1/status", { key: false });
  const file = path.join(import.meta.dirname, "../lib/api/examples.json");
  writeFileSync(file, `${JSON.stringify(examples, null, 2)}\n`);
  say(`wrote ${Object.keys(examples).length} examples to ${file}`);
} finally {
  await server.stop();
  await s.end();
  await db.drop();
}
