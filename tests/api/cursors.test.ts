import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { loadFixture } from "@/scripts/fixtures";
import { type ApiResponse, expectError } from "./helpers";
import { type OwnServer, ownServer } from "./own-server";

/**
 * Walks of the cursor lists while the market moves under them, on a server and fixture of their
 * own (the walks write to the database: rows arrive, prices move, the data version turns). Each
 * walk is checked against the rows there were when it started: every one listed once.
 */

let server: OwnServer;
let key: string;

beforeAll(async () => {
  server = await ownServer("oci_cursors", () => ({}));
  await loadFixture(server.databaseUrl, { size: "tiny", seed: 11 });
  key = (await createKey(server.db, await ensureAccount(server.db, null, "api_tier"), "walks")).key;
}, 240_000);

afterAll(async () => {
  await server?.close();
});

type Envelope<T> = { data: T[]; total: number; page: number; limit: number; next_cursor: string | null };

async function get<T = unknown>(path: string): Promise<ApiResponse<Envelope<T>>> {
  const res = await fetch(`${server.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Envelope<T> };
}

/** A new data version, as the worker's every commit makes one: the API's caches and list snapshots follow it. */
const nextVersion = () => server.sql`update sync_state set data_version = data_version + 1`;

/**
 * Reads a list to its end: the first page from `first`, then each next_cursor, with `between`
 * run after the first page (the market moving mid-walk). Returns the keys in order, and the pages' numbers.
 */
async function walk<T>(first: string, keyOf: (row: T) => string, between: () => Promise<unknown> = async () => {}) {
  const keys: string[] = [];
  const pages: number[] = [];
  let path: string | null = first;
  for (let n = 0; path; n++) {
    const res: ApiResponse<Envelope<T>> = await get<T>(path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    keys.push(...res.body.data.map(keyOf));
    pages.push(res.body.page);
    if (n === 0) await between();
    const cursor: string | null = res.body.next_cursor;
    path = cursor === null ? null : `${first.split("?")[0]}?${withCursor(first, cursor)}`;
    expect(pages.length, "the walk ends").toBeLessThan(500);
  }
  return { keys, pages };
}

/** The first request's parameters, but page, with the cursor. */
function withCursor(first: string, cursor: string) {
  const search = new URLSearchParams(first.split("?")[1] ?? "");
  search.delete("page");
  search.set("cursor", cursor);
  return search.toString();
}

/** The same list read page by page with page=, as a client without cursors walks it. */
async function walkByPage<T>(first: string, keyOf: (row: T) => string, between: () => Promise<unknown>) {
  const keys: string[] = [];
  for (let page = 1; ; page++) {
    const res = await get<T>(`${first}&page=${page}`);
    keys.push(...res.body.data.map(keyOf));
    if (page === 1) await between();
    if (res.body.data.length < res.body.limit) return keys;
  }
}

const once = (keys: string[]) => new Set(keys).size === keys.length;

describe("GET /v1/tokens?cursor=", () => {
  type Token = { address: string };
  const first = "/v1/tokens?sort=price_change_5m&limit=4";
  const whole = async () => (await get<Token>(first.replace("limit=4", "limit=200"))).body.data.map((t) => t.address);

  /**
   * Two tokens of the list's end go to its top and two of its top to its end, in a new data
   * version; resolves once the list shows it (its snapshot of the new version is built).
   */
  const moves = (order: string[], step: number) => async () => {
    const [up, down] = [order.slice(-2), order.slice(0, 2)];
    await server.sql`update token_metrics set price_change_5m_pct = ${step} where address in ${server.sql(up)}`;
    await server.sql`update token_metrics set price_change_5m_pct = ${-step} where address in ${server.sql(down)}`;
    await nextVersion();
    // Equal values go by address.
    await expect.poll(async () => (await whole())[0], { timeout: 60_000 }).toBe([...up].sort()[0]);
  };

  it("lists each token once while the sort's values move between pages, where page= repeats and skips", async () => {
    const before = await whole();
    const { keys, pages } = await walk<Token>(first, (t) => t.address, moves(before, 1e6));
    expect(once(keys)).toBe(true);
    expect(keys).toEqual(before);
    expect(pages).toEqual(pages.map((_, i) => i + 1));

    // The same moves under a walk by page number: the movers are listed twice or never.
    const now = await whole();
    const paged = await walkByPage<Token>(first, (t) => t.address, moves(now, 2e6));
    expect(once(paged)).toBe(false);
    expect(new Set(paged).size).toBeLessThan(now.length);
  });

  it("keeps the filters and the total on every page of a walk", async () => {
    const all = (await get<Token>("/v1/tokens?sort=liquidity&min_liquidity_usd=1&limit=200")).body;
    const { keys } = await walk<Token>("/v1/tokens?sort=liquidity&min_liquidity_usd=1&limit=3", (t) => t.address);
    expect(keys).toEqual(all.data.map((t) => t.address));
    expect((await get("/v1/tokens?sort=liquidity&min_liquidity_usd=1&limit=3")).body.total).toBe(all.total);
  });

  it("gives a next cursor only while matches remain after the page", async () => {
    const list = (limit: number) => get<Token>(`/v1/tokens?sort=liquidity&min_liquidity_usd=1&limit=${limit}`);
    const { total } = (await list(1)).body;
    expect(total).toBeGreaterThan(1);
    expect(total).toBeLessThanOrEqual(200);
    expect((await list(total)).body.next_cursor).toBeNull();
    expect((await list(total - 1)).body.next_cursor).not.toBeNull();
    // Past the matches, a page is empty and ends the walk.
    const past = (await get<Token>(`/v1/tokens?sort=liquidity&min_liquidity_usd=1&limit=${total}&page=2`)).body;
    expect(past.data).toEqual([]);
    expect(past.next_cursor).toBeNull();
  });
});

describe("GET /v1/tokens/{address}/holders?cursor=", () => {
  type Holder = { address: string; quantity: number };

  it("lists each holder once while holders arrive, a newcomer ahead of the walk too; page= repeats one", async () => {
    const [{ token }] = await server.sql<{ token: string }[]>`
      select token_address as token from balances where amount > 0 group by 1 order by count(*) desc, 1 limit 1`;
    const first = `/v1/tokens/${token}/holders?limit=3`;
    const before = (await get<Holder>(`/v1/tokens/${token}/holders?limit=200`)).body.data.map((h) => h.address);
    expect(before.length).toBeGreaterThan(6);
    const [{ top }] = await server.sql<
      { top: string }[]
    >`select max(amount)::text as top from balances where token_address = ${token}`;
    let n = 0;
    // One holder arrives above everyone (in the part already walked), one below everyone (ahead of the walk).
    const arrive = async () => {
      n++;
      const [big, small] = [`0x${"b".repeat(38)}${n}${n}`, `0x${"5".repeat(38)}${n}${n}`];
      await server.sql`insert into balances (token_address, holder, amount, updated_block)
                       values (${token}, ${big}, ${`${top}0`}, 1), (${token}, ${small}, 1, 1)`;
      await nextVersion();
      return { big, small };
    };
    let arrived: { big: string; small: string } | undefined;
    const { keys } = await walk<Holder>(
      first,
      (h) => h.address,
      async () => {
        arrived = await arrive();
      },
    );
    expect(once(keys)).toBe(true);
    expect(keys).toEqual([...before, arrived!.small]);

    const paged = await walkByPage<Holder>(first, (h) => h.address, arrive);
    expect(once(paged), "page= lists the holder the arrival pushed down twice").toBe(false);
  });
});

describe("GET /v1/wallets/{address}/positions?cursor=", () => {
  type Position = { token_address: string; status: string; value_usd: number };

  it("lists each position once, in its walk's starting order, while a token's price moves between pages", async () => {
    const [{ wallet }] = await server.sql<{ wallet: string }[]>`
      select wallet from wallet_positions group by wallet
       order by count(*) filter (where quantity > 0) desc, count(*) desc, wallet limit 1`;
    const first = `/v1/wallets/${wallet}/positions?limit=2`;
    const before = (await get<Position>(`/v1/wallets/${wallet}/positions?limit=200`)).body.data;
    const open = before.filter((p) => p.status === "open" && p.value_usd > 0);
    expect(open.length).toBeGreaterThan(2);
    // The least valuable open position's token jumps in price: by value it now ranks first, among those already listed.
    const move = async () => {
      await server.sql`update token_metrics set price_usd = price_usd * 1e9
                        where address = ${open.at(-1)!.token_address}`;
      await nextVersion();
    };
    const { keys, pages } = await walk<Position>(first, (p) => p.token_address, move);
    expect(once(keys)).toBe(true);
    expect(keys).toEqual(before.map((p) => p.token_address));
    expect(pages).toEqual(pages.map((_, i) => i + 1));
  });
});

describe("GET /v1/wallets/{address}/launches?cursor=", () => {
  type Launch = { token_address: string };

  it("lists each launch once while the wallet launches more, newest and backfilled; page= repeats one", async () => {
    const [{ creator, head }] = await server.sql<{ creator: string; head: number }[]>`
      select creator, (select max(number) from blocks)::int as head from tokens where creator is not null
       group by creator order by count(*) desc, creator limit 1`;
    const first = `/v1/wallets/${creator}/launches?limit=2`;
    const before = (await get<Launch>(`/v1/wallets/${creator}/launches?limit=200`)).body.data.map(
      (l) => l.token_address,
    );
    expect(before.length).toBeGreaterThan(2);
    let n = 0;
    // A launch newer than all (in the part already walked) and one older than all (ahead of the walk).
    const launch = async () => {
      n++;
      const [newest, oldest] = [`0x${"a".repeat(38)}${n}${n}`, `0x${"0".repeat(38)}${n}${n}`];
      for (const [address, block] of [
        [newest, head + n],
        [oldest, 0],
      ] as const)
        await server.sql`insert into tokens
                           (address, name, symbol, total_supply, launchpad, creator, created_block, created_at)
                         values (${address}, 'Arrival', 'ARR', 1, 'PumpPad', ${creator}, ${block}, now())`;
      await nextVersion();
      return { newest, oldest };
    };
    let arrived: { newest: string; oldest: string } | undefined;
    const { keys, pages } = await walk<Launch>(
      first,
      (l) => l.token_address,
      async () => {
        arrived = await launch();
      },
    );
    expect(once(keys)).toBe(true);
    expect(keys).toEqual([...before, arrived!.oldest]);
    expect(pages).toEqual(pages.map((_, i) => i + 1));
    const paged = await walkByPage<Launch>(first, (l) => l.token_address, launch);
    expect(once(paged), "page= lists the launch the arrival pushed down twice").toBe(false);
  });
});

describe("GET /v1/search?cursor=", () => {
  type Hit = { type: string; address: string };

  it("walks the tokens, then the wallets, each once, while a wallet arrives among those already listed", async () => {
    const first = "/v1/search?q=0x&limit=7";
    const before = (await get<Hit>("/v1/search?q=0x&limit=200")).body;
    expect(before.data.some((h) => h.type === "token") && before.data.some((h) => h.type === "wallet")).toBe(true);
    const all = [...before.data.map((h) => h.address)];
    for (let page = 2; all.length < before.total; page++)
      all.push(...(await get<Hit>(`/v1/search?q=0x&limit=200&page=${page}`)).body.data.map((h) => h.address));
    const arrive = async () => {
      // The busiest wallet of all: it ranks first among the wallets, before the walk's place once it is in them.
      await server.sql`insert into wallets (address, first_seen, last_seen, trade_count)
                       values (${`0x${"c".repeat(40)}`}, now(), now(), 1000000)`;
      await nextVersion();
    };
    const { keys } = await walk<Hit>(
      first,
      (h) => h.address,
      async () => {},
    );
    expect(keys).toEqual(all);
    const { keys: moved } = await walk<Hit>(
      first.replace("limit=7", `limit=${before.data.filter((h) => h.type === "token").length + 3}`),
      (h) => h.address,
      arrive,
    );
    expect(once(moved)).toBe(true);
    expect(moved.filter((a) => a !== `0x${"c".repeat(40)}`)).toEqual(all);
  });
});

describe("GET /v1/wallets/{address}/events?cursor=", () => {
  type Event = { id: string };

  it("lists each event once while new ones arrive at the top; page= repeats them", async () => {
    const [{ wallet }] = await server.sql<{ wallet: string }[]>`
      select wallet_address as wallet from events group by 1 order by count(*) desc, 1 limit 1`;
    const first = `/v1/wallets/${wallet}/events?limit=5`;
    const before = (await get<Event>(`/v1/wallets/${wallet}/events?limit=200`)).body.data.map((e) => e.id);
    expect(before.length).toBeGreaterThan(10);
    let block = 0;
    const arrive = async () => {
      block = block || (await server.sql<{ b: number }[]>`select max(block_number)::int + 1 as b from events`)[0].b;
      block++;
      for (let i = 0; i < 2; i++) {
        await server.sql`insert into events
          (id, type, wallet_address, token_address, block_number, log_index, tx_hash, timestamp)
          select ${block * 100_000 + i}, type, wallet_address, token_address, ${block}, ${i}, tx_hash, now() from events
           where wallet_address = ${wallet} order by id desc limit 1`;
      }
      await nextVersion();
    };
    const { keys } = await walk<Event>(first, (e) => e.id, arrive);
    expect(once(keys)).toBe(true);
    expect(keys).toEqual(before);
    const paged = await walkByPage<Event>(first, (e) => e.id, arrive);
    expect(once(paged)).toBe(false);
  });
});

describe("cursor= refusals", () => {
  it("refuses a malformed cursor, another list's, another token's, and one with page, naming cursor", async () => {
    const [a, b] = await server.sql<{ token: string }[]>`
      select token_address as token from balances where amount > 0 group by 1 having count(*) > 2 order by 1 limit 2`;
    const tokens = (await get("/v1/tokens?sort=newest&limit=2")).body.next_cursor!;
    const holders = (await get(`/v1/tokens/${a.token}/holders?limit=1`)).body.next_cursor!;
    for (const path of [
      "/v1/tokens?cursor=bm90LWpzb24",
      "/v1/tokens?cursor=%2B%2B",
      `/v1/tokens?cursor=${"A".repeat(600)}`,
      `/v1/tokens?sort=liquidity&cursor=${tokens}`,
      `/v1/tokens?sort=newest&cursor=${tokens}&page=2`,
      `/v1/search?q=0x&cursor=${tokens}`,
      `/v1/tokens/${b.token}/holders?cursor=${holders}`,
    ]) {
      expectError(await get(path), 400, "INVALID_PARAMS", "cursor");
    }
  });
});
