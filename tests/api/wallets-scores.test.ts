import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { V1_PATHS } from "@/app/v1/document";
import { tokenScore, walletScore } from "@/lib/api/schemas/scores";
import { walletProfile } from "@/lib/api/schemas/wallets";
import { api, expectError, expectShape, testDb } from "./helpers";

let wallet: string;
let token: string;
let flagged: string;

beforeAll(async () => {
  [{ address: wallet }] = await testDb().execute<{ address: string }>(
    sql`select wallet as address from wallet_positions where quantity > 0
         group by wallet order by count(*) desc, wallet limit 1`,
  );
  [{ address: token }] = await testDb().execute<{ address: string }>(
    sql`select address from token_scores order by address limit 1`,
  );
  [{ address: flagged }] = await testDb().execute<{ address: string }>(
    sql`select address from token_scores where cardinality(flags) > 0 order by address limit 1`,
  );
});

const unindexed = `0x${"5".repeat(40)}`;

describe("GET /v1/wallets/{address}", () => {
  it("returns the profile with its portfolio", async () => {
    const res = await api(`/v1/wallets/${wallet}`);
    const body = expectShape(walletProfile, res.body);
    expect(body.address).toBe(wallet);
    expect(body.portfolio.length).toBeGreaterThan(0);
    for (const h of body.portfolio) expect(h.quantity).toBeGreaterThan(0);
    const values = body.portfolio.map((h) => h.value_usd);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    expect(Object.keys(body).sort()).toEqual(
      [
        "address",
        "classification",
        "reputation_score",
        "reputation_confidence",
        "portfolio",
        "pnl_estimate_usd",
        "pnl_confidence",
        "sector_preference",
        "trade_count",
        "first_seen",
        "launches",
      ].sort(),
    );
  });
  it("404s unindexed, 400s malformed", async () => {
    expectError(await api(`/v1/wallets/${unindexed}`), 404, "NOT_FOUND");
    expectError(await api("/v1/wallets/0xnothex"), 400, "INVALID_PARAMS", "address");
  });
});

describe("GET /v1/scores", () => {
  it("returns a wallet score with dimensions in range", async () => {
    const body = expectShape(walletScore, (await api(`/v1/scores/wallet/${wallet}`)).body);
    expect(body.address).toBe(wallet);
  });
  it("returns a token score with flags explained by evidence", async () => {
    expectShape(tokenScore, (await api(`/v1/scores/token/${token}`)).body);
    const body = expectShape(tokenScore, (await api(`/v1/scores/token/${flagged}`)).body);
    expect(body.flags.length).toBeGreaterThan(0);
    for (const flag of body.flags) expect(body.flag_evidence.map((e) => e.flag)).toContain(flag);
  });
  it("averages the reputations the token's ten largest real holders have now", async () => {
    const [t] = await testDb().execute<{ address: string; holders: string[]; avg: number }>(sql`
      select s.address, s.reputation_holders as holders,
             coalesce((select avg(w.reputation_score) from wallet_scores w where w.address = any(s.reputation_holders)),
                      0)::float8 as avg
        from token_scores s where cardinality(s.reputation_holders) = 10 order by s.address limit 1`);
    // The ten largest balances that are not pools, burn addresses, the token or other contracts.
    const largest = await testDb().execute<{ holder: string }>(sql`
      select b.holder from balances b left join wallets w on w.address = b.holder
       where b.token_address = ${t.address} and b.amount > 0 and b.holder <> b.token_address
         and b.holder not in ('0x0000000000000000000000000000000000000000',
                              '0x000000000000000000000000000000000000dead')
         and coalesce(w.is_contract, 0) = 0 and not exists (select 1 from pools p where p.address = b.holder)
       order by b.amount desc, b.holder limit 10`);
    expect(t.holders).toEqual(largest.map((r) => r.holder));
    const body = expectShape(tokenScore, (await api(`/v1/scores/token/${t.address}`)).body);
    expect(body.top_holder_summary.avg_reputation_top10).toBeCloseTo(t.avg, 1);
  });
  it.each(["wallet", "token"])("404s an unindexed %s and 400s a malformed one", async (kind) => {
    expectError(await api(`/v1/scores/${kind}/${unindexed}`), 404, "NOT_FOUND");
    expectError(await api(`/v1/scores/${kind}/xyz`), 400, "INVALID_PARAMS", "address");
    expectError(await api(`/v1/scores/${kind}/${wallet}?page=1`), 400, "INVALID_PARAMS", "page");
  });
});

/**
 * The fixture is one chain (seed 7) at any hour, and the worker scores it with lib/scoring: these
 * figures move only when the chain, the worker's derivations or lib/scoring do (a weight of
 * lib/scoring/weights.ts included), and such a change updates them here, knowingly.
 */
describe("published scores of the fixture chain", () => {
  it("pins a token's risk score: its dimensions under RISK_WEIGHTS, no flag or floor", async () => {
    const body = expectShape(
      tokenScore,
      (await api("/v1/scores/token/0x7d97361b4df3e28aeb9a2307798a1b71395c6b04")).body,
    );
    expect({
      risk_score: body.risk_score,
      flags: body.flags,
      dimensions: body.dimensions,
      adjustments: body.adjustments,
    }).toEqual({
      // 0.3·11 + 0.3·56.5 + 0.2·0 + 0.2·59.8 = 32.21. Liquidity counts the unlocked LP (its creator holds
      // it: unlocked_lp_share 1), which the severe-liquidity floor leaves out (45.6 without it, below 50).
      risk_score: 32.2,
      flags: [],
      dimensions: {
        holder_concentration_score: 11,
        liquidity_stability_score: 56.5,
        wash_trade_score: 0,
        smart_money_flow_score: 59.8,
      },
      adjustments: [],
    });
  });

  it("pins a wallet's reputation and class", async () => {
    const body = expectShape(
      walletScore,
      (await api("/v1/scores/wallet/0x241daa9cfdb6902d364a97431b93e2f6f9fa0ea7")).body,
    );
    const { reputation_score, classification, dimensions, weights, missing_dimensions } = body;
    expect({ reputation_score, classification, dimensions, weights, missing_dimensions }).toEqual({
      // A position whose tokens are all in a pool as the wallet's liquidity is open, not a closed one without a profit.
      reputation_score: 75,
      classification: "smart_money",
      // Consistency has no data (one week of closed trades): its no-evidence 50, at weight 0.
      dimensions: { win_rate: 0.6552, entry_timing_score: 68.3, consistency_score: 50, risk_drawdown_score: 100 },
      weights: { win_rate: 0.4375, entry_timing_score: 0.3125, consistency_score: 0, risk_drawdown_score: 0.25 },
      missing_dimensions: [{ dimension: "consistency_score", reason: "too_few_closed_weeks" }],
    });
  });

  it("counts closed positions as the positions list does, and apart the closed trades its record uses", async () => {
    // A wallet the scorer counts more closed trades for than it has closed positions.
    const [{ address }] = await testDb().execute<{ address: string }>(sql`
      select s.address from wallet_scores s join wallet_position_counts c on c.wallet = s.address
       where s.closed_positions > c.total - c.open order by s.address limit 1`);
    const score = expectShape(walletScore, (await api(`/v1/scores/wallet/${address}`)).body);
    const closed = await api(`/v1/wallets/${address}/positions?status=closed&limit=1`);
    expect(score.closed_positions).toBe(closed.body.total);
    // The others are open positions it sold down to less than $1 of value (docs/methodology.md).
    const open = (await api(`/v1/wallets/${address}/positions?status=open&limit=200`)).body.data as {
      sell_count: number;
      value_usd: number;
    }[];
    const dust = open.filter((p) => p.sell_count > 0 && p.value_usd < 1).length;
    expect(dust).toBeGreaterThan(0);
    expect(score.closed_trades).toBe(score.closed_positions + dust);
  });
});

describe("public routes", () => {
  it("serves the status without a key", async () => {
    const res = await api("/v1/status", { key: null });
    expect(res.status).toBe(200);
    expect(res.body.indexed_block).toBeGreaterThan(0);
  });
  it("serves an OpenAPI 3.1 document covering every route", async () => {
    const res = await api("/v1/openapi.json", { key: null });
    expect(res.body.openapi).toBe("3.1.0");
    // The served document is the one the route folders are checked against (app/v1/routes.test.ts).
    expect(Object.keys(res.body.paths).sort()).toEqual(Object.keys(V1_PATHS).sort());
    const params = res.body.paths["/tokens"].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(["sort", "min_liquidity_usd", "exclude_flags", "page", "limit"]));
  });
  it("adds X-Indexed-Block to data responses", async () => {
    const res = await api("/v1/tokens?limit=1");
    expect(Number(res.headers.get("x-indexed-block"))).toBeGreaterThan(0);
  });
});
