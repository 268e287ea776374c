import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { holderList, ohlcvList, poolList } from "@/lib/api/schemas/market";
import { api, expectError, expectShape, testDb } from "./helpers";

/** The busiest token (most swaps), a quiet one, and the indexed head's time. */
let busy: string;
let quiet: string;
let head: number;
const unindexed = `0x${"5".repeat(40)}`;

/** A pool event of a token: its time, the token's price after it (the pricing rule's), and its USD when a swap. */
type PoolEvent = { id: number; at: number; price: number; usd: number; swap: boolean };
async function poolEventsOf(token: string): Promise<PoolEvent[]> {
  return (await testDb().execute(sql`
    select e.id, extract(epoch from e.timestamp)::float8 as at, e.amount_usd as usd, e.price_usd as price,
           e.type = 'swap' as swap
      from events e where e.token_address = ${token} and e.price_usd is not null
     order by e.id`)) as unknown as PoolEvent[];
}

beforeAll(async () => {
  [{ token: busy }] = await testDb().execute<{ token: string }>(
    sql`select token_address as token from events where type = 'swap' group by 1 order by count(*) desc, 1 limit 1`,
  );
  [{ token: quiet }] = await testDb().execute<{ token: string }>(
    sql`select token_address as token from events where type = 'swap' group by 1 order by count(*), 1 limit 1`,
  );
  [{ head }] = await testDb().execute<{ head: number }>(
    sql`select extract(epoch from indexed_block_time)::float8 as head from sync_state`,
  );
});

/** Candles computed here from the pool events: the rule of the endpoint, written a second time. */
function expectedCandles(events: PoolEvent[], step: number, first: number, last: number) {
  const out = [];
  let close: number | null = events.filter((s) => s.at < first).at(-1)?.price ?? null;
  for (let at = first; at <= last; at += step) {
    const inside = events.filter((s) => s.at >= at && s.at < at + step);
    const previous = close;
    if (inside.length) close = inside.at(-1)!.price;
    if (close === null) continue;
    // Opens at the previous close; the token's first candle at its first price.
    const open = inside.length ? (previous ?? inside[0].price) : close;
    const prices = [open, ...inside.map((s) => s.price)];
    out.push({
      time: new Date(at * 1000).toISOString(),
      open,
      high: Math.max(...prices),
      low: Math.min(...prices),
      close,
      volume_usd: Math.round(inside.reduce((a, s) => a + (s.swap ? s.usd : 0), 0) * 100) / 100,
      trades: inside.filter((s) => s.swap).length,
    });
  }
  return out;
}

function expectSameCandles(actual: ReturnType<typeof expectedCandles>, expected: ReturnType<typeof expectedCandles>) {
  expect(actual.map((c) => c.time)).toEqual(expected.map((c) => c.time));
  actual.forEach((c, i) => {
    const e = expected[i];
    // A price of 0 (no pool held the minimum liquidity) is 0 exactly; the others agree to 9 digits.
    for (const k of ["open", "high", "low", "close"] as const)
      expect(e[k] === 0 ? c[k] : c[k] / e[k], `${c.time} ${k}`).toBeCloseTo(e[k] === 0 ? 0 : 1, 9);
    expect(c.volume_usd).toBeCloseTo(e.volume_usd, 1);
    expect(c.trades).toBe(e.trades);
  });
}

describe("GET /v1/tokens/{address}/ohlcv", () => {
  it("returns the last `limit` candles up to the indexed head by default, carrying quiet intervals on", async () => {
    const res = await api(`/v1/tokens/${busy}/ohlcv?interval=5m&limit=100`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    const body = expectShape(ohlcvList, res.body);
    const last = Math.floor(head / 300) * 300;
    const expected = expectedCandles(await poolEventsOf(busy), 300, last - 99 * 300, last);
    expect(body.total).toBe(expected.length);
    expectSameCandles(body.data, expected);
    expect(body.data.some((c) => c.trades === 0)).toBe(true);
    expect(body.data.some((c) => c.trades > 0)).toBe(true);
  });

  it("pages a from..to range oldest first, from the token's first pool event, with the exact total", async () => {
    const events = await poolEventsOf(quiet);
    const step = 3_600;
    const from = new Date((events[0].at - 86_400 * 2) * 1000).toISOString();
    const to = new Date(head * 1000).toISOString();
    const all = expectedCandles(events, step, Math.floor(events[0].at / step) * step, Math.floor(head / step) * step);
    const page2 = await api(`/v1/tokens/${quiet}/ohlcv?interval=1h&from=${from}&to=${to}&limit=7&page=2`);
    const body = expectShape(ohlcvList, page2.body);
    expect(body.total).toBe(all.length);
    expectSameCandles(body.data, all.slice(7, 14));
    // The first candle is the token's first pool event's interval.
    const page1 = expectShape(
      ohlcvList,
      (await api(`/v1/tokens/${quiet}/ohlcv?interval=1h&from=${from}&limit=1`)).body,
    );
    expect(page1.data[0].time).toBe(all[0].time);
    expectSameCandles(page1.data, all.slice(0, 1));
  });

  it("aligns daily candles to 00:00 UTC and answers no candles for a range before the first pool event", async () => {
    const body = expectShape(ohlcvList, (await api(`/v1/tokens/${busy}/ohlcv?interval=1d&limit=3`)).body);
    for (const c of body.data) expect(c.time).toMatch(/T00:00:00\.000Z$/);
    const before = await api(`/v1/tokens/${busy}/ohlcv?interval=1m&from=2001-01-01T00:00:00Z&to=2001-01-02T00:00:00Z`);
    expect(before.body).toEqual({ data: [], total: 0, page: 1, limit: 200 });
  });

  const invalid: [string, string][] = [
    ["interval=2h", "interval"],
    ["from=yesterday", "from"],
    ["to=2026-13-01", "to"],
    ["from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z", "from"],
    ["limit=0", "limit"],
    ["limit=1001", "limit"],
    ["page=0", "page"],
    ["sort=asc", "sort"],
  ];
  it.each(invalid)("rejects %s with 400 naming %s", async (query, param) => {
    expectError(await api(`/v1/tokens/${busy}/ohlcv?${query}`), 400, "INVALID_PARAMS", param);
  });
  it("404s an unindexed token and 400s a malformed address", async () => {
    expectError(await api(`/v1/tokens/${unindexed}/ohlcv`), 404, "NOT_FOUND");
    expectError(await api("/v1/tokens/0x12/ohlcv"), 400, "INVALID_PARAMS", "address");
  });
});

describe("GET /v1/tokens/{address}/holders", () => {
  it("pages every real holder, largest first, with the exact total and the profile's top holders first", async () => {
    const [{ n }] = await testDb().execute<{ n: number }>(sql`
      select count(*)::int as n from balances b
       where b.token_address = ${busy} and b.amount > 0 and b.holder <> ${busy}
         and b.holder not in ('0x0000000000000000000000000000000000000000',
                              '0x000000000000000000000000000000000000dead')
         and not exists (select 1 from pools p where p.address = b.holder)`);
    const page1 = await api(`/v1/tokens/${busy}/holders?limit=10`);
    expect(page1.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    const body = expectShape(holderList, page1.body);
    expect(body.total).toBe(n);
    expect(n).toBeGreaterThan(20);
    const profile = (await api(`/v1/tokens/${busy}`)).body;
    expect(body.data.map((h) => h.address)).toEqual(profile.top_holders.map((h: { address: string }) => h.address));
    const page2 = expectShape(holderList, (await api(`/v1/tokens/${busy}/holders?limit=10&page=2`)).body);
    const quantities = [...body.data, ...page2.data].map((h) => h.quantity);
    expect(quantities).toEqual([...quantities].sort((a, b) => b - a));
    expect(new Set([...body.data, ...page2.data].map((h) => h.address)).size).toBe(20);
    const last = expectShape(
      holderList,
      (await api(`/v1/tokens/${busy}/holders?limit=200&page=${Math.ceil(n / 200)}`)).body,
    );
    expect(last.data).toHaveLength(n - 200 * (Math.ceil(n / 200) - 1));
  });

  it.each([
    ["limit=201", "limit"],
    ["page=x", "page"],
    ["min=1", "min"],
  ])("rejects %s with 400 naming %s", async (query, param) => {
    expectError(await api(`/v1/tokens/${busy}/holders?${query}`), 400, "INVALID_PARAMS", param);
  });
  it("404s an unindexed token", async () => {
    expectError(await api(`/v1/tokens/${unindexed}/holders`), 404, "NOT_FOUND");
  });
});

describe("GET /v1/tokens/{address}/pools", () => {
  it("lists the token's pools with protocol, pair token, liquidity, price, 24 h volume, exact total", async () => {
    const pools = await testDb().execute<{ address: string; liquidity_usd: number }>(
      sql`select address, liquidity_usd from pools where token0 = ${busy} or token1 = ${busy}
           order by liquidity_usd desc, address`,
    );
    const [{ volume, swaps }] = await testDb().execute<{ volume: number; swaps: number }>(sql`
      select coalesce(sum(amount_usd), 0)::float8 as volume, count(*)::int as swaps from events
       where token_address = ${busy} and type = 'swap' and pool_address = ${pools[0].address}
         and timestamp > (select indexed_block_time from sync_state) - interval '24 hours'`);
    const res = await api(`/v1/tokens/${busy}/pools`);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    const body = expectShape(poolList, res.body);
    expect(body.total).toBe(pools.length);
    expect(body.data.map((p) => p.address)).toEqual(pools.map((p) => p.address));
    const [deepest] = body.data;
    expect(deepest.protocol).toBe("uniswap_v2");
    expect(deepest.pair_token_address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(deepest.volume_24h_usd).toBeCloseTo(volume, 1);
    expect(deepest.swaps_24h).toBe(swaps);
    expect(swaps).toBeGreaterThan(0);
    const token = (await api(`/v1/tokens/${busy}`)).body;
    // The pool the token is priced from gives the token's price.
    const source = body.data.find((p) => p.is_price_source);
    expect(source).toBeDefined();
    expect(source!.price_usd! / token.price_usd).toBeCloseTo(1, 6);
  });

  it("prices every pool at its marginal price (the reserve ratio); names a quote pair token by symbol", async () => {
    // The fixture's pairs are V2 against WETH: a pool's price is its WETH over its tokens, in USD at
    // the WETH price the source pool implies (V3's sqrtPriceX96 is checked in worker/test/v3.test.ts).
    const ratios = await testDb().execute<{ token: string; address: string; weth_per_token: number; weth: string }>(sql`
      select t.address as token, p.address, pc.address as weth,
             (case when p.token0 = t.address then p.reserve1 else p.reserve0 end)::float8 / 1e18
               / ((case when p.token0 = t.address then p.reserve0 else p.reserve1 end)::float8 / 10 ^ t.decimals)
               as weth_per_token
        from tokens t join pools p on p.token0 = t.address or p.token1 = t.address
        join chain_contracts pc
          on pc.address = (case when p.token0 = t.address then p.token1 else p.token0 end) and pc.name = 'WETH'
       where t.address in (${busy}, ${quiet})`);
    expect(ratios.length).toBeGreaterThanOrEqual(2);
    const pools = new Map<
      string,
      {
        price_usd: number | null;
        pair_token_symbol: string | null;
        pair_token_address: string;
        is_price_source: boolean;
      }
    >();
    for (const t of [busy, quiet])
      for (const p of (await api(`/v1/tokens/${t}/pools`)).body.data) pools.set(p.address, p);
    const busyPrice = (await api(`/v1/tokens/${busy}`)).body.price_usd;
    const busySource = ratios.find((r) => r.token === busy && pools.get(r.address)?.is_price_source)!;
    const wethUsd = busyPrice / busySource.weth_per_token;
    for (const r of ratios) {
      const p = pools.get(r.address)!;
      expect([r.address, p.pair_token_symbol, p.pair_token_address]).toEqual([r.address, "WETH", r.weth]);
      expect(p.price_usd! / (r.weth_per_token * wethUsd), r.address).toBeCloseTo(1, 9);
    }
  });

  it.each([
    ["an unindexed token", `/v1/tokens/${unindexed}/pools`, 404, "NOT_FOUND", undefined],
    ["an unknown parameter", "/v1/tokens/{busy}/pools?protocol=v3", 400, "INVALID_PARAMS", "protocol"],
    ["a limit above 200", "/v1/tokens/{busy}/pools?limit=201", 400, "INVALID_PARAMS", "limit"],
    ["page 0", "/v1/tokens/{busy}/pools?page=0", 400, "INVALID_PARAMS", "page"],
    ["a malformed address", "/v1/tokens/0x12/pools", 400, "INVALID_PARAMS", "address"],
  ])("refuses %s", async (_, path, status, code, param) => {
    expectError(await api(path.replace("{busy}", busy)), status, code, param);
  });
});
