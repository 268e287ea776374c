import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { tokenList, tokenProfile } from "@/lib/api/schemas/tokens";
import { launchList, walletProfile } from "@/lib/api/schemas/wallets";
import type { LaunchOutcome } from "@/lib/domain/vocab";
import { api, expectError, expectShape, newKey, testDb } from "./helpers";

/**
 * Who made a token and what its creator launched before (issue 48 item 2), on the fixture chain,
 * whose launch teams launch many tokens and whose creators rug, sell part, buy more or hold.
 */

type Launch = ReturnType<typeof launchList.parse>["data"][number];

let creator: string;

beforeAll(async () => {
  // The creator with the most launches among those whose launches have more than one outcome.
  [{ creator }] = await testDb().execute<{ creator: string }>(sql`
    select t.creator from tokens t join token_metrics m on m.address = t.address
     where t.creator is not null
     group by t.creator
    having count(distinct 'liquidity_pulled' = any(m.risk_flags)) > 1
     order by count(*) desc, t.creator limit 1`);
});

const allLaunches = async (wallet: string) =>
  expectShape(launchList, (await api(`/v1/wallets/${wallet}/launches?limit=200`)).body);

/**
 * What the outcome rule says of a launch, from the raw facts rather than the metrics the API reads:
 * its flags, its pools' liquidity, and its last swap in the events against the indexed head's time.
 */
async function outcomeFromFacts(l: Launch): Promise<LaunchOutcome> {
  if (l.risk_flags.includes("liquidity_pulled")) return "liquidity_pulled";
  const [{ head, last }] = await testDb().execute<{ head: string; last: string | null }>(sql`
    select (select max(indexed_block_time) from sync_state)::text as head,
           (select max(b.timestamp) from events e join blocks b on b.number = e.block_number
             where e.token_address = ${l.token_address} and e.type = 'swap')::text as last`);
  const dayBefore = Date.parse(head) - 24 * 3_600_000;
  const quiet = (last === null || Date.parse(last) <= dayBefore) && Date.parse(l.created_at) <= dayBefore;
  return l.liquidity_usd <= 0 || quiet ? "abandoned" : "trading";
}

describe("GET /v1/wallets/{address}/launches", () => {
  it("lists every token the wallet created, newest first, each with the outcome its facts give", async () => {
    const body = await allLaunches(creator);
    const rows = await testDb().execute<{ address: string }>(
      sql`select address from tokens where creator = ${creator} order by created_block desc, address`,
    );
    expect(body.total).toBe(rows.length);
    expect(body.total).toBeGreaterThan(3);
    expect(body.data.map((l) => l.token_address)).toEqual(rows.map((r) => r.address));
    expect(new Set(body.data.map((l) => l.outcome)).size).toBeGreaterThan(1);
    for (const l of body.data) {
      expect(l.outcome, l.token_symbol).toBe(await outcomeFromFacts(l));
      if (l.last_trade_at) expect(Date.parse(l.last_trade_at)).toBeGreaterThanOrEqual(Date.parse(l.created_at));
    }
    expect(body.next_cursor).toBeNull();
  });

  it("finds every outcome on the fixture chain, each agreeing with the facts", async () => {
    const creators = await testDb().execute<{ creator: string }>(
      sql`select creator from tokens where creator is not null group by 1 order by count(*) desc, 1 limit 12`,
    );
    const seen = new Set<LaunchOutcome>();
    for (const { creator: c } of creators) {
      for (const l of (await allLaunches(c)).data) {
        seen.add(l.outcome);
        expect(l.outcome, l.token_symbol).toBe(await outcomeFromFacts(l));
      }
    }
    expect([...seen].sort()).toEqual(["abandoned", "liquidity_pulled", "trading"]);
  });

  it("counts the launches by outcome in the wallet profile, as the list has them", async () => {
    const profile = expectShape(walletProfile, (await api(`/v1/wallets/${creator}`)).body);
    const list = await allLaunches(creator);
    const count = (o: LaunchOutcome) => list.data.filter((l) => l.outcome === o).length;
    expect(profile.launches).toEqual({
      total: list.total,
      trading: count("trading"),
      liquidity_pulled: count("liquidity_pulled"),
      abandoned: count("abandoned"),
    });
    // A wallet that launched nothing says so with zeros.
    const [{ trader }] = await testDb().execute<{ trader: string }>(sql`
      select w.address as trader from wallets w where not exists (select 1 from tokens t where t.creator = w.address)
       order by w.trade_count desc limit 1`);
    const none = expectShape(walletProfile, (await api(`/v1/wallets/${trader}`)).body);
    expect(none.launches).toEqual({ total: 0, trading: 0, liquidity_pulled: 0, abandoned: 0 });
    const empty = expectShape(launchList, (await api(`/v1/wallets/${trader}/launches`)).body);
    expect([empty.total, empty.data, empty.next_cursor]).toEqual([0, [], null]);
  });

  it("pages by page= and walks by cursor= to the same list, each launch once, with the exact total", async () => {
    const full = (await allLaunches(creator)).data.map((l) => l.token_address);
    const limit = 2;
    const paged: string[] = [];
    for (let page = 1; (page - 1) * limit < full.length; page++) {
      const body = expectShape(
        launchList,
        (await api(`/v1/wallets/${creator}/launches?limit=${limit}&page=${page}`)).body,
      );
      expect([body.total, body.page]).toEqual([full.length, page]);
      paged.push(...body.data.map((l) => l.token_address));
    }
    expect(paged).toEqual(full);
    const walked: string[] = [];
    const pages: number[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `cursor=${cursor}&limit=${limit}` : `limit=${limit}`;
      const body = expectShape(launchList, (await api(`/v1/wallets/${creator}/launches?${query}`)).body);
      expect(body.total).toBe(full.length);
      walked.push(...body.data.map((l) => l.token_address));
      pages.push(body.page);
      cursor = body.next_cursor;
    } while (cursor);
    expect(walked).toEqual(full);
    expect(pages).toEqual(pages.map((_, i) => i + 1));
  });

  it("404s an unindexed wallet, 400s a malformed address, parameter or cursor, 401s without a key", async () => {
    expectError(await api(`/v1/wallets/0x${"5".repeat(40)}/launches`), 404, "NOT_FOUND");
    expectError(await api("/v1/wallets/0xzz/launches"), 400, "INVALID_PARAMS", "address");
    expectError(await api(`/v1/wallets/${creator}/launches?limit=0`), 400, "INVALID_PARAMS", "limit");
    expectError(await api(`/v1/wallets/${creator}/launches?outcome=trading`), 400, "INVALID_PARAMS", "outcome");
    expectError(await api(`/v1/wallets/${creator}/launches?cursor=bm90LWpzb24`), 400, "INVALID_PARAMS", "cursor");
    // Another wallet's cursor, and another list's.
    const [{ other }] = await testDb().execute<{ other: string }>(sql`
      select creator as other from tokens where creator is not null and creator <> ${creator}
       group by 1 having count(*) > 1 order by 1 limit 1`);
    const theirs = (await api(`/v1/wallets/${other}/launches?limit=1`)).body.next_cursor;
    expectError(await api(`/v1/wallets/${creator}/launches?cursor=${theirs}`), 400, "INVALID_PARAMS", "cursor");
    const [{ token }] = await testDb().execute<{ token: string }>(
      sql`select address as token from token_metrics order by holder_count desc limit 1`,
    );
    const holders = (await api(`/v1/tokens/${token}/holders?limit=1`)).body.next_cursor;
    expectError(await api(`/v1/wallets/${creator}/launches?cursor=${holders}`), 400, "INVALID_PARAMS", "cursor");
    expectError(await api(`/v1/wallets/${creator}/launches`, { key: null }), 401, "UNAUTHORIZED");
  });

  it("is metered like its siblings: each request counts against the key's plan", async () => {
    const k = await newKey("free");
    const remaining = async () => {
      const res = await api(`/v1/wallets/${creator}/launches?limit=1`, { key: k.key });
      expect(res.status).toBe(200);
      return Number(res.headers.get("x-ratelimit-remaining"));
    };
    const first = await remaining();
    expect(await remaining()).toBe(first - 1);
  });
});

describe("a token's creator", () => {
  it("names the creator and its launchpad on every token of the list and the profile", async () => {
    const list = expectShape(tokenList, (await api("/v1/tokens?sort=newest&limit=200")).body);
    const rows = await testDb().execute<{ address: string; creator: string; launchpad: string }>(
      sql`select address, creator, launchpad from tokens`,
    );
    const byAddress = new Map(rows.map((r) => [r.address, r]));
    for (const t of list.data) {
      const row = byAddress.get(t.address)!;
      expect(t.creator).toEqual({
        address: row.creator,
        via: { kind: "launchpad", name: row.launchpad },
        unknown_reason: null,
      });
    }
  });

  it("says what the creator holds now and whether it sold, from its balance and its sells", async () => {
    const tokens = await testDb().execute<{ address: string; amount: string; sells: number; buys: number }>(sql`
      select t.address, coalesce(b.amount, 0)::text as amount,
             (select count(*) from events e where e.token_address = t.address and e.wallet_address = t.creator
                 and e.type = 'swap' and e.direction = 'sell')::int as sells,
             (select count(*) from events e where e.token_address = t.address and e.wallet_address = t.creator
                 and e.type = 'swap' and e.direction = 'buy')::int as buys
        from tokens t left join balances b on b.token_address = t.address and b.holder = t.creator
       order by t.address`);
    const seen = new Set<string>();
    for (const t of tokens) {
      const expected =
        t.sells > 0 ? (BigInt(t.amount) > 0n ? "sold_some" : "sold_all") : t.buys > 0 ? "bought_more" : "not_sold";
      // One token of each state is enough to read through the API.
      if (seen.has(expected)) continue;
      seen.add(expected);
      const profile = expectShape(tokenProfile, (await api(`/v1/tokens/${t.address}`)).body);
      const holding = profile.creator_holding!;
      expect(holding.sold, t.address).toBe(expected);
      expect([holding.sell_count, holding.buy_count]).toEqual([t.sells, t.buys]);
      expect(holding.quantity === 0).toBe(BigInt(t.amount) === 0n);
      if (holding.quantity > 0) expect(holding.holding_pct).toBeGreaterThan(0);
    }
    expect([...seen].sort()).toEqual(["bought_more", "not_sold", "sold_all", "sold_some"]);
  });
});
