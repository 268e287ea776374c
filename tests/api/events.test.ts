import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { eventList, removedEvent, walletEventList } from "@/lib/api/schemas/events";
import { api, expectError, expectShape, testDb } from "./helpers";

type Ev = {
  id: string;
  type: string;
  wallet_address: string;
  to_address: string | null;
  token_address: string;
  timestamp: Date;
};
let events: Ev[] = [];

beforeAll(async () => {
  events = (await testDb().execute<Ev>(
    sql`select e.id::text as id, e.type, e.wallet_address, e.to_address, e.token_address, e.timestamp
          from events e order by e.id desc`,
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
    expect(both.body.total).toBe(
      events.filter((e) => ofWallet(wallet)(e) && e.token_address === token && e.type === "swap").length,
    );
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

  it.each([
    5, 61, 120,
  ])("pages deep oldest first (page %i of 100): alone, by type, after since and after an id", async (page) => {
    const oldestFirst = [...events].reverse();
    const from = (page - 1) * 100;
    const pageOf = async (query: string) =>
      (await api(`/v1/events?order=asc&page=${page}&limit=100&${query}`)).body.data.map((e: Ev) => e.id);
    const expected = (list: Ev[]) => list.slice(from, from + 100).map((e) => e.id);
    expect(await pageOf("")).toEqual(expected(oldestFirst));
    expect(await pageOf("type=swap")).toEqual(expected(oldestFirst.filter((e) => e.type === "swap")));
    const pivot = oldestFirst[Math.floor(oldestFirst.length * 0.03)];
    expect(await pageOf(`since=${pivot.timestamp.toISOString()}`)).toEqual(
      expected(oldestFirst.filter((e) => e.timestamp > pivot.timestamp)),
    );
    expect(await pageOf(`after=${pivot.id}`)).toEqual(
      expected(oldestFirst.filter((e) => BigInt(e.id) > BigInt(pivot.id))),
    );
  });

  it("marks events confirmed at or below the indexed head minus finality depth; carries X-Indexed-Block", async () => {
    const [s] = (await testDb().execute<{ indexed_block: string; finality_depth: number }>(
      sql`select indexed_block, finality_depth from sync_state`,
    )) as unknown as { indexed_block: string; finality_depth: number }[];
    const confirmedTo = Number(s.indexed_block) - s.finality_depth;
    expect(s.finality_depth).toBeGreaterThan(0);
    for (const path of ["/v1/events?limit=200", "/v1/events?order=asc&limit=200", "/v1/events?limit=200&page=20"]) {
      const res = await api(path);
      expect(Number(res.headers.get("x-indexed-block"))).toBe(Number(s.indexed_block));
      for (const e of expectShape(eventList, res.body).data) {
        expect("confirmed" in e && e.confirmed).toBe(e.block_number <= confirmedTo);
      }
    }
    const newest = (await api("/v1/events?limit=1")).body.data[0];
    expect(newest.confirmed).toBe(false);
    const wallet = busiest((e) => e.wallet_address);
    const own = await api(`/v1/wallets/${wallet}/events?limit=200`);
    for (const e of expectShape(walletEventList, own.body).data)
      expect(e.confirmed).toBe(e.block_number <= confirmedTo);
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
    ["include_removed=yes", "include_removed"],
  ];
  it.each(invalid)("rejects %s", async (q, param) =>
    expectError(await api(`/v1/events?${q}`), 400, "INVALID_PARAMS", param));
});

describe("GET /v1/events?include_removed=true (tombstones of reorged events)", () => {
  type Tomb = { id: string; block: number; type: string; wallet: string; token: string };
  const tombs: Tomb[] = [];
  const F = 100_000;

  // Events a reorg removed: some in a block that now holds no events (between live ids), some
  // above the indexed head (the new branch was shorter). Only include_removed reads this table.
  beforeAll(async () => {
    const [{ head, gap }] = (await testDb().execute<{ head: string; gap: string }>(sql`
      select (select indexed_block from sync_state) as head,
             (select max(b)
                from generate_series((select min(block_number) from events), (select max(block_number) from events)) b
               where not exists (select 1 from events e where e.block_number = b)) as gap`)) as unknown as {
      head: string;
      gap: string;
    }[];
    const sample = events.slice(0, 6);
    sample.forEach((e, i) => {
      const block = i < 3 ? Number(gap) : Number(head) + 1 + (i % 2);
      tombs.push({ id: String(block * F + i), block, type: e.type, wallet: e.wallet_address, token: e.token_address });
    });
    for (const t of tombs) {
      await testDb().execute(sql`
        insert into event_tombstones
          (id, type, wallet_address, token_address, block_number, log_index, tx_hash, timestamp)
        values (${t.id}, ${t.type}, ${t.wallet}, ${t.token}, ${t.block}, ${Number(t.id) % F},
                ${`0x${"ab".repeat(32)}`}, now())
        on conflict do nothing`);
    }
  });

  it("merges tombstones into the stream in id order after the cursor, with totals counting both", async () => {
    const oldestFirst = [...events].reverse();
    const gap = BigInt(tombs[0].block * F);
    const after = oldestFirst.filter((e) => BigInt(e.id) < gap).at(-1)!.id;
    const res = await api(`/v1/events?order=asc&after=${after}&include_removed=true&limit=200`);
    const body = expectShape(eventList, res.body);
    const live = oldestFirst.filter((e) => BigInt(e.id) > BigInt(after)).map((e) => e.id);
    const expected = [...live, ...tombs.map((t) => t.id)].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    expect(body.data.map((e) => e.id)).toEqual(expected.slice(0, 200));
    expect(body.data.slice(0, 3).map((e) => e.id)).toEqual(tombs.slice(0, 3).map((t) => t.id));
    expect(body.total).toBe(expected.length);
    const tail = await api(`/v1/events?order=asc&after=${oldestFirst.at(-1)!.id}&include_removed=true`);
    expect(tail.body.data.map((e: { id: string }) => e.id)).toEqual(
      tombs
        .slice(3)
        .map((t) => t.id)
        .sort(),
    );
    for (const item of body.data.filter((e) => "removed" in e)) {
      const t = expectShape(removedEvent, item);
      expect(t).toMatchObject({
        removed: true,
        block_number: tombs.find((x) => x.id === t.id)!.block,
        tx_hash: `0x${"ab".repeat(32)}`,
      });
      expect(t).not.toHaveProperty("confirmed");
    }
    // Newest first, filtered by type and by token: the same rules apply to tombstones.
    const t0 = tombs[0];
    const byToken = await api(`/v1/events?token_address=${t0.token}&type=${t0.type}&include_removed=true&limit=200`);
    const ids = expectShape(eventList, byToken.body).data.map((e) => e.id);
    expect(ids).toContain(t0.id);
    expect(ids).toEqual([...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? 1 : -1)));
    expect(byToken.body.total).toBe(
      events.filter((e) => e.token_address === t0.token && e.type === t0.type).length +
        tombs.filter((t) => t.token === t0.token && t.type === t0.type).length,
    );
    const byWallet = await api(`/v1/events?wallet_address=${t0.wallet}&include_removed=true&limit=200`);
    expect(byWallet.body.data.map((e: { id: string }) => e.id)).toContain(t0.id);
  });

  it("lists no tombstones without include_removed, nor with include_removed=false", async () => {
    for (const q of ["", "&include_removed=false"]) {
      const res = await api(`/v1/events?order=asc&after=${tombs[0].block * F - 1}${q}&limit=200`);
      expect(res.body.data.some((e: object) => "removed" in e)).toBe(false);
    }
    expect((await api("/v1/events?limit=1")).body.total).toBe(events.length);
  });

  it("documents include_removed, confirmed and the tombstone in the OpenAPI document", async () => {
    const doc = (await api("/v1/openapi.json", { key: null })).body;
    expect(doc.paths["/events"].get.parameters.map((p: { name: string }) => p.name)).toContain("include_removed");
    expect(Object.keys(doc.components.schemas.Event.properties)).toContain("confirmed");
    expect(doc.components.schemas.RemovedEvent.properties.removed).toBeDefined();
  });
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
    expectError(
      await api(`/v1/wallets/${events[0].wallet_address}/events?token_address=0x1`),
      400,
      "INVALID_PARAMS",
      "token_address",
    );
  });
});
