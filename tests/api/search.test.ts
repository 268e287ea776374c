import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { searchResults } from "@/lib/api/schemas/search";
import { api, expectError, expectShape, testDb } from "./helpers";

type TokenRow = { address: string; symbol: string; name: string; liquidity_usd: number; volume_24h_usd: number };
let tokens: TokenRow[] = [];

beforeAll(async () => {
  tokens = (await testDb().execute(sql`
    select t.address, t.symbol, t.name, coalesce(m.liquidity_usd, 0) as liquidity_usd,
           coalesce(m.volume_24h_usd, 0) as volume_24h_usd
      from tokens t left join token_metrics m on m.address = t.address`)) as unknown as TokenRow[];
});

/** The tokens a query matches and their order, computed here from the rows. */
function expectedTokens(q: string) {
  const lower = q.toLowerCase();
  const starts = (s: string) => s.toLowerCase().startsWith(lower);
  const exact = (t: TokenRow) => (t.symbol.toLowerCase() === lower || t.address === lower ? 1 : 0);
  return tokens
    .filter((t) => starts(t.symbol) || starts(t.name) || (/^0x[0-9a-f]*$/.test(lower) && t.address.startsWith(lower)))
    .sort(
      (a, b) =>
        exact(b) - exact(a) ||
        b.liquidity_usd - a.liquidity_usd ||
        b.volume_24h_usd - a.volume_24h_usd ||
        (a.address < b.address ? -1 : 1),
    );
}

describe("GET /v1/search", () => {
  it("finds tokens by symbol or name prefix, any case, exact symbol first, by liquidity, exact total", async () => {
    // The most common two-letter start of a symbol, asked in the other case.
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t.symbol.slice(0, 2), (counts.get(t.symbol.slice(0, 2)) ?? 0) + 1);
    const [prefix] = [...counts].sort((a, b) => b[1] - a[1])[0];
    const q = prefix.toLowerCase() === prefix ? prefix.toUpperCase() : prefix.toLowerCase();
    const expected = expectedTokens(q);
    expect(expected.length).toBeGreaterThan(2);
    const res = await api(`/v1/search?q=${encodeURIComponent(q)}&limit=200`);
    expect(res.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    const body = expectShape(searchResults, res.body);
    expect(body.total).toBe(expected.length);
    expect(body.data.map((h) => h.address)).toEqual(expected.map((t) => t.address));
    for (const h of body.data) expect(h.type).toBe("token");
  });

  it("puts the token whose symbol is exactly the query first", async () => {
    const target =
      tokens.find((t) => tokens.filter((u) => u.symbol.toLowerCase().startsWith(t.symbol.toLowerCase())).length > 1) ??
      tokens[0];
    const body = expectShape(
      searchResults,
      (await api(`/v1/search?q=${encodeURIComponent(target.symbol.toLowerCase())}`)).body,
    );
    expect(body.data[0]).toMatchObject({ type: "token", symbol: target.symbol, matched: "symbol" });
  });

  it("finds wallets and tokens by address prefix, tokens first, wallets by trade count, exact total", async () => {
    const [{ wallet }] = await testDb().execute<{ wallet: string }>(
      sql`select address as wallet from wallets order by trade_count desc limit 1`,
    );
    const prefix = wallet.slice(0, 4);
    const [{ n }] = await testDb().execute<{ n: number }>(
      sql`select count(*)::int as n from wallets where address like ${`${prefix}%`}`,
    );
    const expectedTokenCount = expectedTokens(prefix).length;
    const body = expectShape(
      searchResults,
      (await api(`/v1/search?q=${prefix.toUpperCase().replace("0X", "0x")}&limit=200`)).body,
    );
    expect(body.total).toBe(n + expectedTokenCount);
    const kinds = body.data.map((h) => h.type);
    expect(kinds).toEqual([...kinds].sort((a, b) => (a === b ? 0 : a === "token" ? -1 : 1)));
    const counts = body.data.flatMap((h) => (h.type === "wallet" ? [h.trade_count] : []));
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const full = expectShape(searchResults, (await api(`/v1/search?q=${wallet}&type=wallet`)).body);
    expect(full).toMatchObject({ total: 1, data: [{ type: "wallet", address: wallet, matched: "address" }] });
  });

  it("pages without overlap and treats LIKE wildcards as text", async () => {
    const q = tokens[0].symbol.slice(0, 1);
    const all = expectShape(searchResults, (await api(`/v1/search?q=${encodeURIComponent(q)}&limit=200`)).body);
    const page2 = expectShape(searchResults, (await api(`/v1/search?q=${encodeURIComponent(q)}&limit=2&page=2`)).body);
    expect(page2.data.map((h) => h.address)).toEqual(all.data.slice(2, 4).map((h) => h.address));
    for (const wild of ["%", "_", "\\"])
      expect((await api(`/v1/search?q=${encodeURIComponent(wild)}`)).body.total).toBe(expectedTokens(wild).length);
  });

  it.each([
    ["", "q"],
    ["q=", "q"],
    ["q=%20%20", "q"],
    [`q=${"a".repeat(101)}`, "q"],
    ["q=ab&type=pool", "type"],
    ["q=ab&limit=500", "limit"],
    ["q=ab&sort=name", "sort"],
  ])("rejects ?%s with 400 naming %s", async (query, param) => {
    expectError(await api(`/v1/search?${query}`), 400, "INVALID_PARAMS", param);
  });
});
