import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_BATCH_ADDRESSES, tokenList, tokenProfile } from "@/lib/api/schemas/tokens";
import type { TokenSort } from "@/lib/domain/vocab";
import { toUnits } from "@/lib/queries/format";
import { netActivity } from "@/lib/scoring/net-activity";
import { api, expectError, expectShape, newKey, testDb } from "./helpers";

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
  created_ms: number;
  volume_1h_usd: number;
  price_usd: number;
  fdv_usd: number;
  holder_count: number;
  txns_24h: number;
  makers_24h: number;
  price_change_5m_pct: number | null;
  price_change_1h_pct: number | null;
  price_change_24h_pct: number | null;
};
let rows: Row[] = [];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

beforeAll(async () => {
  rows = (await testDb().execute<Row>(sql`
    select address, liquidity_usd, market_cap_usd, risk_score, holder_growth_1h_pct, risk_flags, trending_score,
           volume_24h_usd, volume_1h_usd, price_usd, fdv_usd, holder_count,
           buys_24h + sells_24h as txns_24h, makers_24h, price_change_5m_pct, price_change_1h_pct, price_change_24h_pct,
           created_at::timestamptz as created_at, extract(epoch from now() - created_at) / 3600 as age_hours
      from token_metrics`)) as unknown as Row[];
  for (const r of rows) {
    r.created_at = new Date(r.created_at);
    r.created_ms = r.created_at.getTime();
  }
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
    const allowed = new Set(
      rows.filter((r) => keep(r, value + (name === "max_age_hours" ? 0.01 : 0))).map((r) => r.address),
    );
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
    const expected = rows.filter(
      (r) => r.risk_score <= 60 && r.liquidity_usd >= 1000 && !r.risk_flags.includes("sybil_cluster"),
    );
    expect(res.body.total).toBe(expected.length);
  });

  // Each sort's row field and direction, written here again; a token without the value comes last either way.
  const SORTS: Record<TokenSort, [keyof Row, "asc" | "desc"]> = {
    trending: ["trending_score", "desc"],
    newest: ["created_ms", "desc"],
    oldest: ["created_ms", "asc"],
    liquidity: ["liquidity_usd", "desc"],
    liquidity_asc: ["liquidity_usd", "asc"],
    volume: ["volume_24h_usd", "desc"],
    volume_asc: ["volume_24h_usd", "asc"],
    volume_1h: ["volume_1h_usd", "desc"],
    volume_1h_asc: ["volume_1h_usd", "asc"],
    market_cap: ["market_cap_usd", "desc"],
    market_cap_asc: ["market_cap_usd", "asc"],
    fdv: ["fdv_usd", "desc"],
    fdv_asc: ["fdv_usd", "asc"],
    price: ["price_usd", "desc"],
    price_asc: ["price_usd", "asc"],
    price_change_5m: ["price_change_5m_pct", "desc"],
    price_change_5m_asc: ["price_change_5m_pct", "asc"],
    price_change_1h: ["price_change_1h_pct", "desc"],
    price_change_1h_asc: ["price_change_1h_pct", "asc"],
    price_change_24h: ["price_change_24h_pct", "desc"],
    price_change_24h_asc: ["price_change_24h_pct", "asc"],
    holders: ["holder_count", "desc"],
    holders_asc: ["holder_count", "asc"],
    txns_24h: ["txns_24h", "desc"],
    txns_24h_asc: ["txns_24h", "asc"],
    makers_24h: ["makers_24h", "desc"],
    makers_24h_asc: ["makers_24h", "asc"],
    risk_asc: ["risk_score", "asc"],
    risk_desc: ["risk_score", "desc"],
  };
  const sorts = Object.entries(SORTS).map(([sort, [field, dir]]): [string, (a: Row, b: Row) => number] => [
    sort,
    (a, b) => {
      const [x, y] = [a[field] as number | null, b[field] as number | null];
      if (x === null || y === null)
        return Number(x === null) - Number(y === null) || a.address.localeCompare(b.address);
      return (dir === "asc" ? x - y : y - x) || a.address.localeCompare(b.address);
    },
  ]);
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

  it("looks up a batch in one request: tokens in the order given, duplicates once, unindexed left out", async () => {
    const picked = [rows[5], rows[1], rows[9]].map((r) => r.address);
    const unindexed = `0x${"5".repeat(40)}`;
    const asked = [picked[0], unindexed, picked[1].toUpperCase().replace("0X", "0x"), picked[2], picked[0]];
    const res = await api(`/v1/tokens?addresses=${asked.join(",")}`);
    const body = expectShape(tokenList, res.body);
    expect(body.data.map((t) => t.address)).toEqual(picked);
    expect(body.total).toBe(3);
    // Each is the token the list serves.
    const listed = expectShape(tokenList, (await api("/v1/tokens?limit=200&sort=oldest")).body).data;
    for (const t of body.data) {
      const same = listed.find((l) => l.address === t.address);
      if (same) expect({ ...t, age_hours: 0 }).toEqual({ ...same, age_hours: 0 });
    }
  });

  it("counts a batch lookup as one request", async () => {
    const k = await newKey("pro");
    const first = await api("/v1/tokens?limit=1", { key: k.key });
    const batch = await api(`/v1/tokens?addresses=${rows.slice(0, 50).map((r) => r.address)}`, { key: k.key });
    expect(batch.body.data).toHaveLength(50);
    expect(
      Number(first.headers.get("x-ratelimit-remaining")) - Number(batch.headers.get("x-ratelimit-remaining")),
    ).toBe(1);
  });

  const tooMany = Array.from({ length: MAX_BATCH_ADDRESSES + 1 }, (_, i) => `0x${i.toString(16).padStart(40, "0")}`);
  const invalidBatch: [string, string][] = [
    ["addresses=", "addresses"],
    ["addresses=0x12", "addresses"],
    [`addresses=0x${"a".repeat(40)},nope`, "addresses"],
    [`addresses=${tooMany.join(",")}`, "addresses"],
    [`addresses=0x${"a".repeat(40)}&sort=volume`, "sort"],
    [`addresses=0x${"a".repeat(40)}&min_liquidity_usd=5`, "min_liquidity_usd"],
    [`addresses=0x${"a".repeat(40)}&page=2`, "page"],
  ];
  it.each(invalidBatch)("rejects the batch %s with 400 naming %s", async (query, param) => {
    expectError(await api(`/v1/tokens?${query}`), 400, "INVALID_PARAMS", param);
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
      select e.token_address as token
        from events e join balances b on b.token_address = e.token_address and b.holder = e.wallet_address
       where e.type = 'swap' and e.timestamp > (select max(indexed_block_time) from sync_state) - interval '1 day'
         and b.amount > 0
       group by 1 order by count(*) desc limit 1`);
    const body = expectShape(tokenProfile, (await api(`/v1/tokens/${busiest.token}`)).body);
    const flows = await testDb().execute<{
      holder: string;
      balance: string;
      decimals: number;
      bought: string;
      sold: string;
    }>(sql`
      select b.holder, b.amount::text as balance, t.decimals,
             coalesce(sum(e.token_amount) filter (where e.direction = 'buy'), 0)::text as bought,
             coalesce(sum(e.token_amount) filter (where e.direction = 'sell'), 0)::text as sold
        from balances b join tokens t on t.address = b.token_address
        left join events e on e.token_address = b.token_address and e.wallet_address = b.holder
                          and e.type = 'swap'
                          and e.timestamp > (select max(indexed_block_time) from sync_state) - interval '1 day'
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
      select address, price_usd, price_change_5m_pct, price_change_1h_pct, price_change_24h_pct, volume_1h_usd,
             buys_24h, sells_24h, makers_24h, fdv_usd
        from token_metrics order by volume_24h_usd desc, address limit 1`);
    const profile = expectShape(tokenProfile, (await api(`/v1/tokens/${m.address}`)).body);
    const listed = expectShape(tokenList, (await api("/v1/tokens?sort=volume&limit=1")).body).data[0];
    for (const t of [profile, listed]) {
      expect(t.price_usd).toBe(m.price_usd);
      for (const [field, column] of [
        ["price_change_5m_pct", "price_change_5m_pct"],
        ["price_change_1h_pct", "price_change_1h_pct"],
        ["price_change_24h_pct", "price_change_24h_pct"],
      ] as const)
        expect(t[field]).toBe(m[column] === null ? null : Math.round(m[column]! * 100) / 100);
      expect(t.volume_1h_usd).toBeCloseTo(m.volume_1h_usd!, 2);
      expect(t.txns_24h).toEqual({ buys: m.buys_24h, sells: m.sells_24h });
      expect(t.makers_24h).toBe(m.makers_24h);
      expect(t.fdv_usd).toBeCloseTo(m.fdv_usd!, 2);
    }
  });

  it("404s an unindexed address and 400s a malformed one", async () => {
    expectError(await api(`/v1/tokens/0x${"1".repeat(40)}`), 404, "NOT_FOUND");
    expectError(await api("/v1/tokens/0x123"), 400, "INVALID_PARAMS", "address");
    expectError(await api(`/v1/tokens/${rows[0].address}?x=1`), 400, "INVALID_PARAMS", "x");
  });
});
