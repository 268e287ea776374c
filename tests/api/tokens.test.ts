import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { tokenList, tokenProfile } from "@/lib/api/schemas/tokens";
import { toUnits } from "@/lib/queries/format";
import { netActivity } from "@/lib/scoring/net-activity";
import { api, expectError, expectShape, testDb } from "./helpers";

type Row = {
  address: string;
  liquidity_usd: number;
  market_cap_usd: number;
  risk_score: number;
  holder_growth_1h_pct: number;
  age_hours: number;
  risk_flags: string[];
  trending_score: number;
  volume_24h_usd: number;
  created_at: Date;
};
let rows: Row[] = [];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

beforeAll(async () => {
  rows = (await testDb().execute<Row>(sql`
    select address, liquidity_usd, market_cap_usd, risk_score, holder_growth1h_pct as holder_growth_1h_pct, risk_flags, trending_score,
           volume24h_usd as volume_24h_usd,
           created_at::timestamptz as created_at, extract(epoch from now() - created_at) / 3600 as age_hours
      from token_metrics`)) as unknown as Row[];
  for (const r of rows) r.created_at = new Date(r.created_at);
  expect(rows.length).toBeGreaterThan(100);
});

describe("GET /v1/tokens", () => {
  it("returns the envelope with exact total and typed items", async () => {
    const res = await api("/v1/tokens");
    expect(res.status).toBe(200);
    const body = expectShape(tokenList, res.body);
    expect(body.total).toBe(rows.length);
    expect(body.page).toBe(1);
    expect(body.limit).toBe(50);
    expect(body.data).toHaveLength(50);
    for (const t of body.data) expect(t.address).toMatch(/^0x[0-9a-f]{40}$/);
  });

  // Each filter against an oracle computed from the database itself.
  const filters: [string, (r: Row, v: number) => boolean, (rs: Row[]) => number][] = [
    ["min_liquidity_usd", (r, v) => r.liquidity_usd >= v, (rs) => median(rs.map((r) => r.liquidity_usd))],
    ["max_market_cap_usd", (r, v) => r.market_cap_usd <= v, (rs) => median(rs.map((r) => r.market_cap_usd))],
    ["min_market_cap_usd", (r, v) => r.market_cap_usd >= v, (rs) => median(rs.map((r) => r.market_cap_usd))],
    ["max_risk_score", (r, v) => r.risk_score <= v, () => 40],
    ["min_holder_growth_1h_pct", (r, v) => r.holder_growth_1h_pct >= v, () => 1],
    ["max_age_hours", (r, v) => r.age_hours <= v, (rs) => median(rs.map((r) => r.age_hours))],
  ];
  it.each(filters)("filters by %s", async (name, keep, pick) => {
    const value = Math.round(pick(rows) * 100) / 100;
    const res = await api(`/v1/tokens?${name}=${value}&limit=200`);
    expect(res.status).toBe(200);
    const expected = rows.filter((r) => keep(r, value));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(rows.length);
    // age moves with the clock; allow tokens at the boundary
    if (name === "max_age_hours") expect(Math.abs(res.body.total - expected.length)).toBeLessThanOrEqual(1);
    else expect(res.body.total).toBe(expected.length);
    const allowed = new Set(rows.filter((r) => keep(r, value + (name === "max_age_hours" ? 0.01 : 0))).map((r) => r.address));
    for (const t of res.body.data) expect(allowed.has(t.address)).toBe(true);
  });

  it("excludes tokens carrying any of exclude_flags", async () => {
    const res = await api("/v1/tokens?exclude_flags=wash_trading,liquidity_pulled&limit=200");
    expect(res.status).toBe(200);
    const expected = rows.filter((r) => !r.risk_flags.some((f) => f === "wash_trading" || f === "liquidity_pulled"));
    expect(expected.length).toBeLessThan(rows.length);
    expect(res.body.total).toBe(expected.length);
    for (const t of res.body.data) expect(t.risk_flags).not.toContain("wash_trading");
  });

  it("combines filters with AND", async () => {
    const res = await api("/v1/tokens?max_risk_score=60&min_liquidity_usd=1000&exclude_flags=sybil_cluster");
    const expected = rows.filter((r) => r.risk_score <= 60 && r.liquidity_usd >= 1000 && !r.risk_flags.includes("sybil_cluster"));
    expect(res.body.total).toBe(expected.length);
  });

  const sorts: [string, (a: Row, b: Row) => number][] = [
    ["trending", (a, b) => b.trending_score - a.trending_score || a.address.localeCompare(b.address)],
    ["newest", (a, b) => b.created_at.getTime() - a.created_at.getTime() || a.address.localeCompare(b.address)],
    ["liquidity", (a, b) => b.liquidity_usd - a.liquidity_usd || a.address.localeCompare(b.address)],
    ["volume", (a, b) => b.volume_24h_usd - a.volume_24h_usd || a.address.localeCompare(b.address)],
    ["risk_asc", (a, b) => a.risk_score - b.risk_score || a.address.localeCompare(b.address)],
  ];
  it.each(sorts)("sorts by %s, page after page", async (sort, compare) => {
    const expected = [...rows].sort(compare).map((r) => r.address);
    const page1 = await api(`/v1/tokens?sort=${sort}&limit=20`);
    const page3 = await api(`/v1/tokens?sort=${sort}&limit=20&page=3`);
    expect(page1.body.data.map((t: Row) => t.address)).toEqual(expected.slice(0, 20));
    expect(page3.body.data.map((t: Row) => t.address)).toEqual(expected.slice(40, 60));
    expect(page3.body.page).toBe(3);
  });

  it("answers a page past the end with no items and the exact total", async () => {
    const res = await api("/v1/tokens?page=100000&limit=200");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.total).toBe(rows.length);
  });

  const invalid: [string, string][] = [
    ["limit=0", "limit"],
    ["limit=201", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["page=0", "page"],
    ["page=-1", "page"],
    ["sort=best", "sort"],
    ["max_risk_score=101", "max_risk_score"],
    ["max_risk_score=-1", "max_risk_score"],
    ["min_liquidity_usd=lots", "min_liquidity_usd"],
    ["min_liquidity_usd=", "min_liquidity_usd"],
    ["max_market_cap_usd=1e9", "max_market_cap_usd"],
    ["min_market_cap_usd=10&max_market_cap_usd=5", "min_market_cap_usd"],
    ["exclude_flags=rugpull", "exclude_flags"],
    ["exclude_flags=", "exclude_flags"],
    ["max_age_hours=-3", "max_age_hours"],
    ["min_holder_growth_1h_pct=NaN", "min_holder_growth_1h_pct"],
    ["colour=blue", "colour"],
    ["limit=10&limit=20", "limit"],
  ];
  it.each(invalid)("rejects %s with 400 naming %s", async (query, param) => {
    expectError(await api(`/v1/tokens?${query}`), 400, "INVALID_PARAMS", param);
  });
});

describe("GET /v1/tokens/{address}", () => {
  it("returns the profile with top holders", async () => {
    const address = rows[0].address;
    const res = await api(`/v1/tokens/${address.toUpperCase().replace("0X", "0x")}`);
    expect(res.status).toBe(200);
    const body = expectShape(tokenProfile, res.body);
    expect(body.address).toBe(address);
    expect(body.top_holders.length).toBeGreaterThan(0);
    const pcts = body.top_holders.map((h) => h.holding_pct);
    expect(pcts).toEqual([...pcts].sort((a, b) => b - a));
    expect(pcts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(100.0001);
    expect(Date.parse(body.created_at)).not.toBeNaN();
  });

  it("gives each top holder the net activity of its swaps in the 24 h up to the indexed head", async () => {
    // The token whose holders traded most in the window, so the directions are not all "holding".
    const [busiest] = await testDb().execute<{ token: string }>(sql`
      select e.token_address as token from events e join balances b on b.token_address = e.token_address and b.holder = e.wallet_address
       where e.type = 'swap' and e.timestamp > (select max(indexed_block_time) from sync_state) - interval '1 day' and b.amount > 0
       group by 1 order by count(*) desc limit 1`);
    const body = expectShape(tokenProfile, (await api(`/v1/tokens/${busiest.token}`)).body);
    const flows = await testDb().execute<{ holder: string; balance: string; decimals: number; bought: string; sold: string }>(sql`
      select b.holder, b.amount::text as balance, t.decimals,
             coalesce(sum(e.token_amount) filter (where e.direction = 'buy'), 0)::text as bought,
             coalesce(sum(e.token_amount) filter (where e.direction = 'sell'), 0)::text as sold
        from balances b join tokens t on t.address = b.token_address
        left join events e on e.token_address = b.token_address and e.wallet_address = b.holder
                          and e.type = 'swap' and e.timestamp > (select max(indexed_block_time) from sync_state) - interval '1 day'
       where b.token_address = ${busiest.token}
       group by b.holder, b.amount, t.decimals`);
    const expected = new Map(
      flows.map((f) => [
        f.holder,
        netActivity({
          balance: toUnits(f.balance, f.decimals),
          recentBought: toUnits(f.bought, f.decimals),
          recentSold: toUnits(f.sold, f.decimals),
        }),
      ]),
    );
    expect(body.top_holders.length).toBeGreaterThan(0);
    for (const h of body.top_holders) expect([h.address, h.net_activity]).toEqual([h.address, expected.get(h.address)]);
    expect(new Set(body.top_holders.map((h) => h.net_activity)).size).toBeGreaterThan(1);
  });

  it("carries the worker's price figures on the profile and on list items", async () => {
    const [m] = await testDb().execute<Record<string, number | null> & { address: string }>(sql`
      select address, price_usd, price_change5m_pct, price_change1h_pct, price_change24h_pct, volume1h_usd, buys24h, sells24h, makers24h, fdv_usd
        from token_metrics order by volume24h_usd desc, address limit 1`);
    const profile = expectShape(tokenProfile, (await api(`/v1/tokens/${m.address}`)).body);
    const listed = expectShape(tokenList, (await api("/v1/tokens?sort=volume&limit=1")).body).data[0];
    for (const t of [profile, listed]) {
      expect(t.price_usd).toBe(m.price_usd);
      for (const [field, column] of [
        ["price_change_5m_pct", "price_change5m_pct"],
        ["price_change_1h_pct", "price_change1h_pct"],
        ["price_change_24h_pct", "price_change24h_pct"],
      ] as const)
        expect(t[field]).toBe(m[column] === null ? null : Math.round(m[column]! * 100) / 100);
      expect(t.volume_1h_usd).toBeCloseTo(m.volume1h_usd!, 2);
      expect(t.txns_24h).toEqual({ buys: m.buys24h, sells: m.sells24h });
      expect(t.makers_24h).toBe(m.makers24h);
      expect(t.fdv_usd).toBeCloseTo(m.fdv_usd!, 2);
    }
  });

  it("404s an unindexed address and 400s a malformed one", async () => {
    expectError(await api(`/v1/tokens/0x${"1".repeat(40)}`), 404, "NOT_FOUND");
    expectError(await api("/v1/tokens/0x123"), 400, "INVALID_PARAMS", "address");
    expectError(await api(`/v1/tokens/${rows[0].address}?x=1`), 400, "INVALID_PARAMS", "x");
  });
});
