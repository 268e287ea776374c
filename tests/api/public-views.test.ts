import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES, OHLCV_INTERVALS, TOKEN_SORTS } from "@/lib/domain/vocab";
import { CHART_CANDLES, OVERVIEW_URLS, STREAM_PAGE_SIZE } from "@/lib/queries/shared-views";
import { loadFixture } from "@/scripts/fixtures";
import { type ApiResponse, expectError } from "./helpers";
import { type OwnServer, ownServer, signedIn } from "./own-server";

/**
 * What the market costs a visitor, on a server of this file's own with the tiny fixture chain
 * (loopback trusted as a proxy, so X-Forwarded-For tells visitors apart): the shared views free
 * and unlimited to anyone; the other views of the same lists (filters, deep pages, long pages) an
 * account's, refused without one and counted against its plan with one, on the JSON routes and
 * on the pages, whose RSC payload is their data; search metered per address without an account.
 */
let server: OwnServer;
let token: string;
let wallet: string;
/** The most liquid token: on the first page of the shared views and of the filtered ones alike. */
let liquid: string;

beforeAll(async () => {
  server = await ownServer("oci_public_views", () => ({ TRUSTED_PROXIES: "loopback" }));
  await loadFixture(server.databaseUrl, { size: "tiny", seed: 7 });
  [{ token }] = await server.sql`select token_address as token from events group by 1 order by count(*) desc limit 1`;
  [{ wallet }] =
    await server.sql`select wallet_address as wallet from events group by 1 order by count(*) desc limit 1`;
  [{ liquid }] = await server.sql`select address as liquid from token_metrics order by liquidity_usd desc limit 1`;
}, 300_000);
afterAll(async () => {
  await server?.close();
});

const asResponse = async (res: Response): Promise<ApiResponse> => {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
};

let visitors = 0;
/**
 * A visitor without an account at an address of its own: `page` reads a whole page (an RSC
 * request is redirected to its cache-busting URL first), `json` a JSON route.
 */
const visitor = () => {
  const address = `198.51.100.${++visitors}`;
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}${path}`, { headers: { "x-forwarded-for": address, ...headers } });
  const page = async (path: string, headers: Record<string, string> = {}) => {
    const res = await get(path, headers);
    return { status: res.status, body: await res.text() };
  };
  return { meter: `client:${address}`, page, json: (path: string) => get(path).then(asResponse) };
};
const usage = async (keyId: string) =>
  (await server.sql`select requests, rejected from usage_daily where key_id = ${keyId}`)[0] ?? null;
const rateLimit = (res: ApiResponse) => [
  res.headers.get("x-ratelimit-limit"),
  res.headers.get("x-ratelimit-remaining"),
];

/** Views of the same lists that are not shared: a filter, deep and long pages, other candles, a wallet in a token. */
const accountViews = () => [
  "/api/tokens?min_liquidity_usd=1000",
  "/api/tokens?sort=volume&page=2",
  "/api/tokens?limit=200",
  "/api/events?type=swap&page=2",
  `/api/events?token_address=${token}&wallet_address=${wallet}`,
  `/api/tokens/${token}/ohlcv?interval=1h&limit=1000`,
];

describe("shared views", () => {
  it("are free and unlimited without an account: each sort's first page, token and wallet, each chart", async () => {
    const paths = [
      ...Object.values(OVERVIEW_URLS),
      ...TOKEN_SORTS.map((sort) => `/api/tokens?sort=${sort}`),
      `/api/events?limit=${STREAM_PAGE_SIZE}`,
      ...EVENT_TYPES.map((type) => `/api/events?limit=${STREAM_PAGE_SIZE}&type=${type}`),
      `/api/events?limit=${STREAM_PAGE_SIZE}&token_address=${token}`,
      `/api/events?wallet_address=${wallet}&limit=25&page=1`,
      ...Object.keys(OHLCV_INTERVALS).map(
        (interval) => `/api/tokens/${token}/ohlcv?interval=${interval}&limit=${CHART_CANDLES}`,
      ),
    ];
    expect(paths.length).toBeGreaterThan(40);
    const anonymous = visitor();
    for (let round = 0; round < 2; round++) {
      for (const path of paths) {
        const res = await anonymous.json(path);
        expect([path, res.status, ...rateLimit(res)]).toEqual([path, 200, null, null]);
      }
    }
    expect(await usage(anonymous.meter)).toBeNull();
  });

  it("answer a new block: each is read again once the data version moves", async () => {
    const path = `/api/tokens?sort=newest&limit=1`;
    const anonymous = visitor();
    const [first] = (await anonymous.json(path)).body.data;
    await server.sql`update tokens set name = 'Renamed by the test' where address = ${first.address}`;
    await server.sql`update sync_state set data_version = data_version + 1`;
    await expect.poll(async () => (await anonymous.json(path)).body.data[0].name).toBe("Renamed by the test");
  });
});

describe("views that are not shared", () => {
  it("are refused to a visitor without an account, saying to sign in; refusals are not metered", async () => {
    const anonymous = visitor();
    for (let round = 0; round < 2; round++) {
      for (const path of accountViews()) {
        const res = await anonymous.json(path);
        expectError(res, 401, "UNAUTHORIZED");
        expect(res.body.error.message).toMatch(/needs an account.*Sign in/);
      }
    }
    expect(await usage(anonymous.meter)).toBeNull();
  });

  it("are counted against a signed-in account's plan", async () => {
    const { browser, accountId } = await signedIn(server);
    const answers = [];
    for (const path of accountViews()) answers.push([path, ...rateLimit(await browser.fetch(path).then(asResponse))]);
    expect(answers).toEqual(accountViews().map((path, i) => [path, "10", String(9 - i)]));
    expect(await usage(accountId)).toEqual({ requests: accountViews().length, rejected: 0 });
  });
});

describe("the pages", () => {
  const RSC = { rsc: "1" };
  /** A page, HTML or RSC payload, that carries the list's data names its first token. */
  const hasData = (body: string) => body.includes(liquid);

  it("show a visitor without an account a shared view's data, in the HTML and the RSC payload, free", async () => {
    const anonymous = visitor();
    for (const headers of [{}, RSC]) {
      for (const path of ["/tokens?sort=liquidity", "/tokens?sort=liquidity&limit=10"]) {
        const { status, body } = await anonymous.page(path, headers);
        expect([path, status, hasData(body)]).toEqual([path, 200, true]);
      }
    }
    expect(await usage(anonymous.meter)).toBeNull();
  });

  it("ask a visitor without an account to sign in for a filter or deep page, no data in the HTML or RSC", async () => {
    const anonymous = visitor();
    for (const headers of [{}, RSC]) {
      for (const path of ["/tokens?sort=liquidity&min_liquidity_usd=1", "/tokens?sort=liquidity&limit=200"]) {
        const { status, body } = await anonymous.page(path, headers);
        expect([path, status, hasData(body)]).toEqual([path, 200, false]);
        expect(body).toContain("needs an account");
      }
      expect((await anonymous.page(`/wallets/${wallet}?page=2`, headers)).body).toContain("needs an account");
    }
    const { body } = await anonymous.page("/tokens?min_liquidity_usd=1");
    expect(body).toContain('data-testid="sign-in-required"');
    expect(body).toContain(`/signin?callbackUrl=${encodeURIComponent("/tokens?min_liquidity_usd=1")}`);
    expect(await usage(anonymous.meter)).toBeNull();
  });

  it("count a filtered page against a signed-in account, its RSC payload as much as its HTML", async () => {
    const { browser, accountId } = await signedIn(server);
    const path = "/tokens?sort=liquidity&min_liquidity_usd=1";
    expect(hasData(await (await browser.fetch(path)).text())).toBe(true);
    expect(await usage(accountId)).toEqual({ requests: 1, rejected: 0 });
    const redirected = await browser.fetch(path, { headers: RSC });
    const rsc = await (await browser.fetch(redirected.headers.get("location")!, { headers: RSC })).text();
    expect(hasData(rsc)).toBe(true);
    expect(await usage(accountId)).toEqual({ requests: 2, rejected: 0 });
    // A shared view costs a signed-in account nothing either.
    expect(hasData(await (await browser.fetch("/tokens?sort=liquidity")).text())).toBe(true);
    expect(await usage(accountId)).toEqual({ requests: 2, rejected: 0 });
  });

  it("meter search per client address without an account: past the Free limit it says when to retry", async () => {
    const anonymous = visitor();
    for (let i = 0; i < 10; i++)
      expect((await anonymous.page(`/search?q=a${i}`)).body).not.toContain("Rate limit exceeded");
    expect((await anonymous.page("/search?q=a")).body).toMatch(/Rate limit exceeded\. Retry after \d+ s\./);
    expect(await usage(anonymous.meter)).toEqual({ requests: 10, rejected: 1 });
  });
});
