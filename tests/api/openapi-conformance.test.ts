/**
 * The OpenAPI document and the server cannot drift apart: live responses of every operation the
 * document lists (read from the document itself, so a new route is covered or this fails) are
 * validated against it with a JSON Schema 2020-12 validator, success and error bodies alike, in
 * the states a token or a wallet can be in: the fixture chain's (a busy token, one no
 * smart-money wallet held, one nobody holds; a busy wallet, one with fewer than five closed
 * trades, one that never traded) and a chain of the test's own, indexed by the real worker, with
 * a token launched and never traded whose creator holds nothing.
 */
import Ajv2020, { type ErrorObject } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { Indexer } from "@/worker/indexer/indexer";
import { Rpc } from "@/worker/indexer/rpc";
import { addr, FakeChain, ZERO } from "@/worker/test/fake-chain";
import { fakeProfile } from "@/worker/test/fake-market";
import { baseUrl, newKey, sharedKey, testDb } from "./helpers";
import { ownServer } from "./own-server";
import { storeCheckedToken } from "./security-fixture";

type Operation = {
  parameters?: { name: string; in: string }[];
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Document = { servers: { url: string }[]; paths: Record<string, Record<string, Operation>> };

/** One request of an operation ("METHOD /path" as the document has it), its path parameters in `params`. */
type Sample = {
  op: string;
  state: string;
  expect: number;
  params?: Record<string, string>;
  query?: string;
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  /** Another server than the shared one (the own chain's). */
  server?: string;
};

const DOC_ID = "openapi";
const UNINDEXED = `0x${"5".repeat(40)}`;
const UNKNOWN_ALERT = `alrt_${"Z".repeat(20)}`;
/** Routes under app/v1 the document leaves out on purpose: the liveness probe and the document itself. */

let doc: Document;
let ajv: Ajv2020;

/** A JSON pointer into the document, as a URI fragment. */
const pointerPart = (part: string) => encodeURIComponent(part.replaceAll("~", "~0").replaceAll("/", "~1"));
const pointer = (parts: string[]) => parts.map(pointerPart).join("/");

/** The live response to a sample. */
async function send(s: Sample, docPath: string, method: string) {
  const filled = docPath.replace(/\{(\w+)\}/g, (_, name: string) => s.params?.[name] ?? `{${name}}`);
  const prefix = `${s.server ?? baseUrl()}${new URL(doc.servers[0].url).pathname}`;
  const key = s.key === undefined ? await sharedKey() : s.key;
  const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
  const body = s.rawBody ?? (s.body === undefined ? undefined : JSON.stringify(s.body));
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${prefix}${filled}${s.query ? `?${s.query}` : ""}`, { method, headers, body });
  const type = res.headers.get("content-type");
  // A stream does not end: its first chunk stands for its body.
  if (type?.startsWith("text/event-stream") && res.body) {
    const reader = res.body.getReader();
    const first = await reader.read();
    await reader.cancel();
    return { status: res.status, type, text: new TextDecoder().decode(first.value) };
  }
  return { status: res.status, type, text: await res.text() };
}

/** What is wrong with a live response against its operation in the document; [] when nothing. */
async function check(s: Sample): Promise<string[]> {
  const [method, docPath] = s.op.split(" ");
  const where = `${s.op} (${s.state})`;
  const res = await send(s, docPath, method);
  if (res.status !== s.expect) return [`${where}: ${res.status}, expected ${s.expect}: ${res.text.slice(0, 300)}`];
  const declared = doc.paths[docPath][method.toLowerCase()].responses[String(res.status)];
  if (!declared) return [`${where}: status ${res.status} is not declared`];
  const none = res.text === "" ? [] : [`${where}: a body where none is declared`];
  if (declared.content?.["text/event-stream"]) {
    return res.type?.startsWith("text/event-stream") ? [] : [`${where}: content-type ${res.type}`];
  }
  if (!declared.content?.["application/json"]) return none;
  if (!res.type?.startsWith("application/json")) return [`${where}: content-type ${res.type}`];
  const response = ["paths", docPath, method.toLowerCase(), "responses", String(res.status)];
  const validate = ajv.getSchema(`${DOC_ID}#/${pointer([...response, "content", "application/json", "schema"])}`);
  if (!validate) return [`${where}: no schema`];
  if (validate(JSON.parse(res.text))) return [];
  const say = (e: ErrorObject) => `${where}: ${e.instancePath || "/"} ${e.message} (${JSON.stringify(e.params)})`;
  return (validate.errors ?? []).map(say);
}

/** The first address of the fixture in a state, by the query that finds it; the state must exist. */
async function fixture(state: string, query: ReturnType<typeof sql>): Promise<[string, string]> {
  const [row] = await testDb().execute<{ a: string }>(query);
  if (!row) throw new Error(`the fixture has no ${state}`);
  return [state, row.a];
}

/**
 * A key of a Free account that has used its day (the account's meter), today's and tomorrow's (UTC), so it answers
 * 429 whenever it runs.
 */
async function limitedKey() {
  const k = await newKey("free");
  await testDb().execute(sql`insert into usage_daily (key_id, day, requests)
    select ${k.accountId}, (now() at time zone 'utc')::date + d, 100 from generate_series(0, 1) d`);
  return k.key;
}

/** A key above its plan's cap after a downgrade: disabled, not deleted (lib/keys/store.ts). */
async function disabledKey() {
  const k = await newKey("free");
  await testDb().execute(sql`update api_keys set disabled_at = now() where id = ${k.id}`);
  return k.key;
}

/**
 * A chain of the test's own (worker/test/fake-chain.ts), indexed by the worker into a database a
 * server of its own reads: a WETH/USD pair and a token launched with its whole supply in its
 * pool, never traded, whose creator got none of it.
 */
async function untradedLaunch() {
  const E18 = 10n ** 18n;
  const [weth, usd] = fakeProfile.quoteTokens.map((q) => q.address);
  const factory = fakeProfile.factories[0].address;
  const launchpad = fakeProfile.launchpads[0].address;
  const [wethUsd, token, pair, creator] = [addr(0xa0), addr(0x1000), addr(0x2000), addr(0x500)];
  const supply = 1_000_000n * E18;
  const usdReserve = 300_000n * 10n ** 6n;
  const chain = new FakeChain();
  chain
    .tx(addr(1))
    .pairCreated(factory, weth, usd, wethUsd)
    .sync(wethUsd, 100n * E18, usdReserve);
  chain.mint(wethUsd, addr(1), 100n * E18, usdReserve).mine();
  chain
    .tx(creator)
    .pairCreated(factory, token, weth, pair)
    .transfer(token, ZERO, launchpad, supply)
    .transfer(token, launchpad, pair, supply)
    .sync(pair, supply, 10n * E18)
    .mint(pair, launchpad, supply, 10n * E18)
    .launched(launchpad, token, pair, creator, "Quiet Launch", "QUIET", supply);
  chain.mine();
  for (let i = 0; i < fakeProfile.finalityDepth; i++) chain.mine();
  await chain.listen();
  const server = await ownServer("oci_conformance", () => ({ LOG_LEVEL: "warn" }));
  try {
    const rpc = new Rpc({ url: chain.url, addressChunkSize: fakeProfile.addressChunkSize });
    const ix = await Indexer.create({ sql: server.sql, rpc, profile: fakeProfile, fullRefreshIntervalMs: 0 });
    while ((await ix.cycle()).step !== "idle") {
      // catching up with the chain's head
    }
    const key = await createKey(server.db, await ensureAccount(server.db, null, "api_tier"), "conformance");
    return { server, chain, key: key.key, token, creator };
  } catch (err) {
    await server.close();
    await chain.close();
    throw err;
  }
}

let own: Awaited<ReturnType<typeof untradedLaunch>>;
/** The fixture's tokens and wallets by the state they are in: [state, address]. */
let tokens: [string, string][];
let wallets: [string, string][];
const samples: Sample[] = [];

beforeAll(async () => {
  doc = (await (await fetch(`${baseUrl()}/v1/openapi.json`)).json()) as Document;
  // Strict but for `required` without `properties`: a record's keys (weights) are declared so, validly.
  ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  // OpenAPI's own schema keyword: an annotation for code generators, nothing to validate.
  ajv.addVocabulary(["discriminator"]);
  // The document's root is no schema; its keywords are named so that strict mode accepts it as a container.
  ajv.addVocabulary(["openapi", "info", "servers", "security", "paths", "components"]);
  ajv.addSchema(doc, DOC_ID);

  tokens = [
    await fixture(
      "busy token",
      sql`
      select token_address as a from events where type = 'swap' group by 1 order by count(*) desc, 1 limit 1`,
    ),
    await fixture(
      "token no smart-money wallet held",
      sql`
      select address as a from token_scores where smart_money_flow_score is null order by address limit 1`,
    ),
    await fixture(
      "token nobody holds",
      sql`
      select address as a from token_scores where holder_concentration_score is null order by address limit 1`,
    ),
  ];
  wallets = [
    await fixture(
      "busy wallet",
      sql`
      select wallet as a from wallet_positions group by 1 order by count(*) desc, 1 limit 1`,
    ),
    await fixture(
      "wallet with fewer than five closed trades",
      sql`
      select address as a from wallet_scores where win_rate is null and closed_positions > 0 order by address limit 1`,
    ),
    await fixture(
      "wallet that never traded",
      sql`
      select address as a from wallets where trade_count = 0 order by address limit 1`,
    ),
  ];
  own = await untradedLaunch();

  const each = (op: string, list: [string, string][], query?: string) => {
    for (const [state, address] of list) samples.push({ op, state, expect: 200, params: { address }, query });
  };
  each("GET /tokens/{address}", tokens);
  each("GET /tokens/{address}/ohlcv", tokens, "interval=1h&limit=200");
  each("GET /tokens/{address}/holders", tokens, "limit=200");
  each("GET /tokens/{address}/pools", tokens);
  each("GET /tokens/{address}/security", tokens);
  const secured = await storeCheckedToken();
  samples.push({
    op: "GET /tokens/{address}/security",
    state: "a token whose checks ran",
    expect: 200,
    params: { address: secured.token },
  });
  samples.push({
    op: "GET /tokens/{address}",
    state: "a token whose checks ran",
    expect: 200,
    params: { address: secured.token },
  });
  each("GET /scores/token/{address}", tokens);
  each("GET /wallets/{address}", wallets);
  each("GET /wallets/{address}/positions", wallets, "limit=200");
  each("GET /wallets/{address}/events", wallets, "limit=200");
  each("GET /wallets/{address}/launches", wallets, "limit=200");
  each("GET /scores/wallet/{address}", wallets);
  // A serial launcher: its launches in every outcome.
  each("GET /wallets/{address}/launches", [
    await fixture(
      "serial launcher",
      sql`select creator as a from tokens where creator is not null group by 1 order by count(*) desc, 1 limit 1`,
    ),
  ]);
  const list = (op: string, state: string, query: string) => samples.push({ op, state, expect: 200, query });
  list("GET /tokens", "every token, newest first", "sort=newest&limit=200");
  list("GET /tokens", "a batch lookup", `addresses=${tokens.map(([, a]) => a).join(",")},${UNINDEXED}`);
  list("GET /tokens", "a filter that matches nothing", "max_risk_score=0&min_liquidity_usd=1000000000");
  list("GET /search", "tokens by symbol", "q=a&limit=200");
  list("GET /search", "a wallet by address", `q=${wallets[0][1].slice(0, 8)}`);
  list("GET /events", "every type", "limit=200");
  list("GET /events", "one token's transfers", `type=transfer&token_address=${tokens[0][1]}&limit=200`);
  samples.push({ op: "GET /status", state: "the fixture's", expect: 200, key: null });
  // Free keys have no streams (403, sampled with the errors); a Pro key opens one.
  const pro = (await newKey("pro")).key;
  samples.push({
    op: "GET /events/stream",
    state: "a Pro key's stream of swaps",
    expect: 200,
    key: pro,
    query: "type=swap",
  });

  // The own chain's states, read from its server.
  const ownUrl = own.server.baseUrl;
  const onOwn = (op: string, state: string, params?: Record<string, string>, query?: string) =>
    samples.push({ op, state, expect: 200, params, query, key: op === "GET /status" ? null : own.key, server: ownUrl });
  const untraded = { address: own.token };
  onOwn("GET /tokens/{address}", "a token never traded", untraded);
  onOwn("GET /tokens/{address}/ohlcv", "a token never traded", untraded, "interval=1m");
  onOwn("GET /tokens/{address}/holders", "a token never traded", untraded);
  onOwn("GET /tokens/{address}/pools", "a token never traded", untraded);
  onOwn("GET /tokens/{address}/security", "a token never traded", untraded);
  onOwn("GET /scores/token/{address}", "a token never traded", untraded);
  for (const op of [
    "GET /wallets/{address}",
    "GET /wallets/{address}/positions",
    "GET /wallets/{address}/events",
    "GET /wallets/{address}/launches",
  ]) {
    onOwn(op, "a wallet with nothing", { address: own.creator });
  }
  onOwn("GET /scores/wallet/{address}", "a wallet with nothing", { address: own.creator });
  for (const op of ["GET /tokens", "GET /events", "GET /status"]) onOwn(op, "a chain whose one token never traded");
});

afterAll(async () => {
  await own?.server.close();
  await own?.chain.close();
});

/** The alerts' life: created, listed, read, changed, deleted, and what a Free key may not do. */
async function alertSamples(): Promise<Sample[]> {
  const pro = (await newKey("pro")).key;
  const free = (await newKey("free")).key;
  const conditions = { max_risk_score: 40, exclude_flags: ["liquidity_pulled"] };
  const create = async (key: string, name: string) => {
    const res = await fetch(`${baseUrl()}/v1/alerts`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name, conditions }),
    });
    return ((await res.json()) as { id: string }).id;
  };
  const [id, theirs] = [await create(pro, "to change"), await create(free, "Free's own")];
  const webhook = { notification_channel: "webhook", webhook_url: "https://example.com/hook" };
  const [pause, asleep] = [{ status: "paused" }, { status: "asleep" }];
  const hooked = { name: "x", ...webhook, conditions };
  // The other kinds (an address in mixed case, served lowercase), before the list reads them.
  const address = `0x${"Ab".repeat(20)}`;
  const kinds = {
    wallet: { wallet_address: address, actions: ["buy", "receive"], token_address: address },
    price: { token_address: address, moves: "either", change_pct: 25, window: "1h" },
    smart_money: { min_amount_usd: 500 },
  };
  const kindSample = ([kind, c]: [string, object]) => ({
    op: "POST /alerts",
    state: `a ${kind} alert`,
    expect: 201,
    key: pro,
    body: { name: kind, kind, conditions: c },
  });
  return [
    ...Object.entries(kinds).map(kindSample),
    {
      op: "POST /alerts",
      state: "Free smart money",
      expect: 403,
      key: free,
      body: { name: "x", kind: "smart_money", conditions: {} },
    },
    { op: "POST /alerts", state: "email", expect: 201, key: pro, body: { name: "calm", conditions } },
    { op: "POST /alerts", state: "webhook", expect: 201, key: pro, body: hooked },
    { op: "POST /alerts", state: "Free hooks", expect: 403, key: free, body: hooked },
    { op: "POST /alerts", state: "no conditions", expect: 400, key: pro, body: { name: "x" } },
    { op: "GET /alerts", state: "a key's alerts", expect: 200, key: pro },
    { op: "GET /alerts/{id}", state: "an alert", expect: 200, key: pro, params: { id } },
    { op: "GET /alerts/{id}", state: "another key's alert", expect: 404, key: pro, params: { id: theirs } },
    { op: "PATCH /alerts/{id}", state: "paused", expect: 200, key: pro, params: { id }, body: pause },
    { op: "PATCH /alerts/{id}", state: "Free hooks", expect: 403, key: free, params: { id: theirs }, body: webhook },
    { op: "PATCH /alerts/{id}", state: "a bad status", expect: 400, key: pro, params: { id }, body: asleep },
    { op: "DELETE /alerts/{id}", state: "an alert", expect: 204, key: pro, params: { id } },
    { op: "DELETE /alerts/{id}", state: "deleted already", expect: 404, key: pro, params: { id } },
  ];
}

/**
 * The errors every operation can answer, from what the document says of it: 401 without a key and
 * 429 over the limit where it takes one, 400 for an unknown parameter or a malformed path
 * parameter, 404 for an address or alert that does not exist, 413 for a body over 64 KiB.
 */
function errorSamples(op: string, operation: Operation, limited: string, disabled: string): Sample[] {
  const codes = Object.keys(operation.responses);
  const names = (operation.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
  const params = Object.fromEntries(names.map((name) => [name, name === "id" ? UNKNOWN_ALERT : UNINDEXED]));
  // A change an alert accepts, so that only the alert's absence is wrong.
  const body = operation.requestBody ? { status: "paused" } : undefined;
  const out: Sample[] = [{ op, state: "an unknown parameter", expect: 400, params, query: "no_such_parameter=1" }];
  if (operation.security?.length !== 0) {
    out.push({ op, state: "no key", expect: 401, key: null, params });
    out.push({ op, state: "a spent key", expect: 429, key: limited, params });
    out.push({ op, state: "a key disabled by a downgrade", expect: 403, key: disabled, params });
  }
  for (const name of names) {
    out.push({ op, state: `a malformed ${name}`, expect: 400, params: { ...params, [name]: "0xnope" } });
    if (codes.includes("404")) out.push({ op, state: `an unknown ${name}`, expect: 404, params, body });
  }
  const tooLarge = JSON.stringify({ name: "x".repeat(70_000) });
  if (codes.includes("413")) out.push({ op, state: "a body over 64 KiB", expect: 413, params, rawBody: tooLarge });
  return out;
}

/** Every operation of the document: "METHOD /path" and its object. */
const operations = () =>
  Object.entries(doc.paths).flatMap(([docPath, item]) =>
    Object.entries(item).map(([method, operation]) => ({ op: `${method.toUpperCase()} ${docPath}`, operation })),
  );

describe("the OpenAPI document against live responses", () => {
  it("reads each state it names", async () => {
    const get = async (route: string, address: string, server = baseUrl(), key?: string) => {
      const headers = { Authorization: `Bearer ${key ?? (await sharedKey())}` };
      const res = await fetch(`${server}/v1${route.replace("{address}", address)}`, { headers });
      return (await res.json()) as { missing_dimensions: { dimension: string }[]; total: number };
    };
    const missing = async (...args: Parameters<typeof get>) => {
      return (await get(...args)).missing_dimensions.map((m) => m.dimension);
    };
    expect(await missing("/scores/token/{address}", tokens[1][1])).toContain("smart_money_flow_score");
    expect(await missing("/scores/token/{address}", tokens[2][1])).toContain("holder_concentration_score");
    expect(await missing("/scores/wallet/{address}", wallets[1][1])).toContain("win_rate");
    const ownRead = [own.server.baseUrl, own.key] as const;
    // Its price since the launch's liquidity, without a trade.
    const candles = (await get("/tokens/{address}/ohlcv", own.token, ...ownRead)) as unknown as {
      data: { trades: number }[];
    };
    expect(candles.data.map((c) => c.trades).filter((n) => n > 0)).toEqual([]);
    expect(await missing("/scores/token/{address}", own.token, ...ownRead)).toContain("wash_trade_score");
    // Its only position is its launch liquidity (docs/methodology.md): no buy, no sell.
    const positions = (await get("/wallets/{address}/positions", own.creator, ...ownRead)) as unknown as {
      data: { buy_count: number; sell_count: number }[];
    };
    expect(positions.data.filter((p) => p.buy_count + p.sell_count > 0)).toEqual([]);
    // Its launch liquidity is an open position (a drawdown to read), nothing else is.
    expect(await missing("/scores/wallet/{address}", own.creator, ...ownRead)).toEqual(
      expect.arrayContaining(["win_rate", "entry_timing_score", "consistency_score"]),
    );
  });

  it("validates every operation's responses, success and errors, in every state", { timeout: 240_000 }, async () => {
    const [limited, disabled] = [await limitedKey(), await disabledKey()];
    const errors = operations().flatMap((o) => errorSamples(o.op, o.operation, limited, disabled));
    const all = [...samples, ...(await alertSamples()), ...errors];
    const problems: string[] = [];
    for (const s of all) problems.push(...(await check(s)));
    expect(problems).toEqual([]);

    // Each operation, and each status it declares but a server error, has a sample.
    const uncovered = operations().flatMap(({ op, operation }) => {
      const sampled = new Set(all.filter((s) => s.op === op).map((s) => String(s.expect)));
      return Object.keys(operation.responses)
        .filter((code) => code !== "500" && !sampled.has(code))
        .map((code) => `${op} ${code}`);
    });
    expect(uncovered).toEqual([]);
  });
});
