import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { positionList } from "@/lib/api/schemas/wallets";
import { api, expectError, expectShape, testDb } from "./helpers";

let wallet: string;

beforeAll(async () => {
  // A wallet with both open and closed positions.
  [{ wallet }] = await testDb().execute<{ wallet: string }>(sql`
    select wallet from wallet_positions group by wallet
    having count(*) filter (where quantity > 0) > 1 and count(*) filter (where quantity <= 0) > 0
     order by count(*) desc, wallet limit 1`);
});

describe("GET /v1/wallets/{address}/positions", () => {
  it("lists open positions by value, then closed, exact total; their PnL sums to the wallet's estimate", async () => {
    const [{ n, open }] = await testDb().execute<{ n: number; open: number }>(
      sql`select count(*)::int as n, count(*) filter (where quantity > 0)::int as open
            from wallet_positions where wallet = ${wallet}`,
    );
    const res = await api(`/v1/wallets/${wallet}/positions?limit=200`);
    expect(res.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
    const body = expectShape(positionList, res.body);
    expect(body.total).toBe(n);
    expect(body.data).toHaveLength(n);
    expect(body.data.map((p) => p.status)).toEqual([...Array(open).fill("open"), ...Array(n - open).fill("closed")]);
    const values = body.data.filter((p) => p.status === "open").map((p) => p.value_usd);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    for (const p of body.data) {
      expect(p.unrealized_pnl_usd).toBeCloseTo(p.value_usd - p.cost_basis_usd, 1);
      expect(p.pnl_usd).toBeCloseTo(p.realized_pnl_usd + p.unrealized_pnl_usd, 1);
      if (p.buy_count + p.sell_count > 0)
        expect(Date.parse(p.last_trade_at!)).toBeGreaterThanOrEqual(Date.parse(p.first_trade_at!));
    }
    const profile = (await api(`/v1/wallets/${wallet}`)).body;
    const sum = body.data.reduce((a, p) => a + p.pnl_usd, 0);
    expect(Math.abs(sum - profile.pnl_estimate_usd)).toBeLessThan(0.01 * body.data.length + 0.01);
  });

  it("filters by status with exact totals and pages", async () => {
    const [{ open, closed }] = await testDb().execute<{ open: number; closed: number }>(sql`
      select count(*) filter (where quantity > 0)::int as open, count(*) filter (where quantity <= 0)::int as closed
        from wallet_positions where wallet = ${wallet}`);
    const o = expectShape(positionList, (await api(`/v1/wallets/${wallet}/positions?status=open`)).body);
    const c = expectShape(positionList, (await api(`/v1/wallets/${wallet}/positions?status=closed`)).body);
    expect([o.total, c.total]).toEqual([open, closed]);
    expect(new Set(o.data.map((p) => p.status))).toEqual(new Set(["open"]));
    expect(new Set(c.data.map((p) => p.status))).toEqual(new Set(["closed"]));
    const all = expectShape(positionList, (await api(`/v1/wallets/${wallet}/positions`)).body);
    const page2 = expectShape(positionList, (await api(`/v1/wallets/${wallet}/positions?limit=1&page=2`)).body);
    expect(page2.data.map((p) => p.token_address)).toEqual([all.data[1].token_address]);
  });

  it.each([
    "all",
    "open",
    "closed",
  ])("pages status=%s without a gap or a repeat, across the open and closed boundary", async (status) => {
    const full = expectShape(
      positionList,
      (await api(`/v1/wallets/${wallet}/positions?status=${status}&limit=200`)).body,
    );
    for (const limit of [2, 3]) {
      const paged: string[] = [];
      for (let page = 1; (page - 1) * limit < full.total; page++) {
        const body = expectShape(
          positionList,
          (await api(`/v1/wallets/${wallet}/positions?status=${status}&limit=${limit}&page=${page}`)).body,
        );
        expect(body.total).toBe(full.total);
        paged.push(...body.data.map((p) => p.token_address));
      }
      expect(paged).toEqual(full.data.map((p) => p.token_address));
    }
  });

  it("404s an unindexed wallet, 400s bad parameters naming them", async () => {
    expectError(await api(`/v1/wallets/0x${"5".repeat(40)}/positions`), 404, "NOT_FOUND");
    expectError(await api("/v1/wallets/0xzz/positions"), 400, "INVALID_PARAMS", "address");
    expectError(await api(`/v1/wallets/${wallet}/positions?status=sold`), 400, "INVALID_PARAMS", "status");
    expectError(await api(`/v1/wallets/${wallet}/positions?limit=0`), 400, "INVALID_PARAMS", "limit");
    expectError(await api(`/v1/wallets/${wallet}/positions?token=x`), 400, "INVALID_PARAMS", "token");
  });
});
