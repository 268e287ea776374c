import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { eventList, walletEventList } from "@/lib/api/schemas/events";
import { api, expectError, expectShape, testDb } from "./helpers";

type Ev = { id: string; type: string; wallet_address: string; to_address: string | null; token_address: string; timestamp: Date };
let events: Ev[] = [];

beforeAll(async () => {
  events = (await testDb().execute<Ev>(
    sql`select e.id::text as id, e.type, e.wallet_address, e.to_address, e.token_address, e.timestamp from events e order by e.id desc`,
  )) as unknown as Ev[];
  for (const e of events) e.timestamp = new Date(e.timestamp);
  expect(events.length).toBeGreaterThan(1000);
});

const busiest = (key: (e: Ev) => string) => {
  const counts = new Map<string, number>();
  for (const e of events) counts.set(key(e), (counts.get(key(e)) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
};
const ofWallet = (w: string) => (e: Ev) => e.wallet_address === w || e.to_address === w;

describe("GET /v1/events", () => {
  it("lists every event newest first with the exact total", async () => {
    const res = await api("/v1/events?limit=200");
    const body = expectShape(eventList, res.body);
    expect(body.total).toBe(events.length);
    expect(body.data.map((e) => e.id)).toEqual(events.slice(0, 200).map((e) => e.id));
  });

  it.each(["swap", "liquidity_add", "liquidity_remove", "transfer"])("filters type=%s", async (type) => {
    const res = await api(`/v1/events?type=${type}&limit=200`);
    const expected = events.filter((e) => e.type === type);
    expect(expected.length).toBeGreaterThan(0);
    expect(res.body.total).toBe(expected.length);
    for (const e of res.body.data) expect(e.type).toBe(type);
  });

  it("gives swaps a direction, liquidity and transfers none, and transfers a to_address", async () => {
    for (const e of (await api("/v1/events?type=swap")).body.data) expect(["buy", "sell"]).toContain(e.direction);
    for (const e of (await api("/v1/events?type=liquidity_add")).body.data) expect(e.direction).toBeNull();
    for (const e of (await api("/v1/events?type=transfer")).body.data) {
      expect(e.direction).toBeNull();
      expect(e.to_address).toMatch(/^0x[0-9a-f]{40}$/);
    }
  });

  it("filters by token and by wallet (as actor or transfer receiver)", async () => {
    const token = busiest((e) => e.token_address);
    const byToken = await api(`/v1/events?token_address=${token.toUpperCase().replace("0X", "0x")}&limit=200`);
    expect(byToken.body.total).toBe(events.filter((e) => e.token_address === token).length);
    const wallet = busiest((e) => e.wallet_address);
    const byWallet = await api(`/v1/events?wallet_address=${wallet}&limit=200`);
    expect(byWallet.body.total).toBe(events.filter(ofWallet(wallet)).length);
    const both = await api(`/v1/events?wallet_address=${wallet}&token_address=${token}&type=swap`);
    expect(both.body.total).toBe(events.filter((e) => ofWallet(wallet)(e) && e.token_address === token && e.type === "swap").length);
  });

  it("filters since (exclusive) with exact totals, alone and with a type", async () => {
    for (const frac of [0.05, 0.5, 0.95]) {
      const pivot = events[Math.floor(events.length * frac)].timestamp;
      const res = await api(`/v1/events?since=${pivot.toISOString()}&limit=200`);
      expect(res.body.total).toBe(events.filter((e) => e.timestamp > pivot).length);
      for (const e of res.body.data) expect(Date.parse(e.timestamp)).toBeGreaterThan(pivot.getTime());
      const swaps = await api(`/v1/events?since=${pivot.toISOString()}&type=swap`);
      expect(swaps.body.total).toBe(events.filter((e) => e.timestamp > pivot && e.type === "swap").length);
    }
  });

  it("resumes a stream with after= and order=asc without gaps or duplicates", async () => {
    const oldestFirst = [...events].reverse();
    const seen: string[] = [];
    let after = oldestFirst[oldestFirst.length - 450].id;
    for (;;) {
      const page = await api(`/v1/events?order=asc&after=${after}&limit=200`);
      if (!page.body.data.length) break;
      seen.push(...page.body.data.map((e: Ev) => e.id));
      after = page.body.data.at(-1).id;
    }
    expect(seen).toEqual(oldestFirst.slice(-449).map((e) => e.id));
  });

  it.each([5, 61, 150])("pages deep (page %i of 100), also where pages start from block counts", async (page) => {
    const res = await api(`/v1/events?page=${page}&limit=100`);
    const from = (page - 1) * 100;
    expect(res.body.data.map((e: Ev) => e.id)).toEqual(events.slice(from, from + 100).map((e) => e.id));
    const swaps = events.filter((e) => e.type === "swap");
    const bySwap = await api(`/v1/events?type=swap&page=${page}&limit=100`);
    expect(bySwap.body.data.map((e: Ev) => e.id)).toEqual(swaps.slice(from, from + 100).map((e) => e.id));
  });

  it.each([5, 61, 120])("pages deep oldest first (page %i of 100): alone, by type, after since and after an id", async (page) => {
    const oldestFirst = [...events].reverse();
    const from = (page - 1) * 100;
    const pageOf = async (query: string) => (await api(`/v1/events?order=asc&page=${page}&limit=100&${query}`)).body.data.map((e: Ev) => e.id);
    const expected = (list: Ev[]) => list.slice(from, from + 100).map((e) => e.id);
    expect(await pageOf("")).toEqual(expected(oldestFirst));
    expect(await pageOf("type=swap")).toEqual(expected(oldestFirst.filter((e) => e.type === "swap")));
    const pivot = oldestFirst[Math.floor(oldestFirst.length * 0.03)];
    expect(await pageOf(`since=${pivot.timestamp.toISOString()}`)).toEqual(expected(oldestFirst.filter((e) => e.timestamp > pivot.timestamp)));
    expect(await pageOf(`after=${pivot.id}`)).toEqual(expected(oldestFirst.filter((e) => BigInt(e.id) > BigInt(pivot.id))));
  });

  const invalid: [string, string][] = [
    ["type=mint", "type"],
    ["token_address=0xzz", "token_address"],
    ["wallet_address=abc", "wallet_address"],
    ["since=yesterday", "since"],
    ["since=2026-13-45T00:00:00Z", "since"],
    ["after=-1", "after"],
    ["after=abc", "after"],
    ["order=up", "order"],
    ["limit=500", "limit"],
  ];
  it.each(invalid)("rejects %s", async (q, param) => expectError(await api(`/v1/events?${q}`), 400, "INVALID_PARAMS", param));
});

describe("GET /v1/wallets/{address}/events", () => {
  it("lists the wallet's events without wallet_address", async () => {
    const wallet = busiest((e) => e.wallet_address);
    const res = await api(`/v1/wallets/${wallet}/events?limit=200`);
    const body = expectShape(walletEventList, res.body);
    expect(body.total).toBe(events.filter(ofWallet(wallet)).length);
    for (const e of res.body.data) expect(e).not.toHaveProperty("wallet_address");
    const swaps = await api(`/v1/wallets/${wallet}/events?type=swap`);
    expect(swaps.body.total).toBe(events.filter((e) => ofWallet(wallet)(e) && e.type === "swap").length);
  });

  it("404s an unindexed wallet and 400s bad input", async () => {
    expectError(await api(`/v1/wallets/0x${"7".repeat(40)}/events`), 404, "NOT_FOUND");
    expectError(await api(`/v1/wallets/0x${"7".repeat(39)}/events`), 400, "INVALID_PARAMS", "address");
    expectError(await api(`/v1/wallets/${events[0].wallet_address}/events?type=x`), 400, "INVALID_PARAMS", "type");
    expectError(await api(`/v1/wallets/${events[0].wallet_address}/events?token_address=0x1`), 400, "INVALID_PARAMS", "token_address");
  });
});
