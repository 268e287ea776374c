import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeKey } from "@/lib/keys/store";
import { SseClient as Sse, type SseClient, type SseMessage } from "@/tests/setup/sse-client";
import { api, baseUrl, newKey, testDb } from "./helpers";

/**
 * GET /v1/events/stream against the shared fixture (no worker runs: the chain stands still), so
 * a stream is its catch-up from where it resumes, then the head. Reorgs, restarts and the live
 * fan-out: events-stream-live.test.ts.
 */
const open = (query: string, key: string, o: { lastEventId?: string; headers?: Record<string, string> } = {}) =>
  Sse.open(`${baseUrl()}/v1/events/stream${query}`, { key, ...o });

const opened: SseClient[] = [];
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
});

/** The events a stream sends before its first head message, and that message. */
async function untilHead(c: SseClient): Promise<{ events: Record<string, unknown>[]; head: SseMessage }> {
  const events: Record<string, unknown>[] = [];
  for (;;) {
    const m = await c.next();
    if (!m) throw new Error("the stream ended before its first head message");
    if (m.event === "head") return { events, head: m };
    expect(m.event).toBe("message");
    expect(m.id).toBe((JSON.parse(m.data) as { id: string }).id);
    events.push(JSON.parse(m.data));
  }
}

/** GET /v1/events oldest first after `after`, every page. */
async function listed(query: string, after: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (;;) {
    const page = (await api(`/v1/events?order=asc&limit=200&after=${after}${query}`)).body.data as { id: string }[];
    out.push(...page);
    if (page.length < 200) return out;
    after = page[page.length - 1].id;
  }
}

let key: string;
let head: { indexed_block: number; confirmed_block: number };
let lastId: string;
let busiest: { token: string; wallet: string };

beforeAll(async () => {
  key = (await newKey("api_tier")).key;
  const [s] = (await testDb().execute(sql`
    select indexed_block::int as indexed_block, (indexed_block - finality_depth)::int as confirmed_block,
           (select max(id)::text from events) as last_id,
           (select token_address from events group by 1 order by count(*) desc limit 1) as token,
           (select wallet_address from events group by 1 order by count(*) desc limit 1) as wallet
      from sync_state`)) as unknown as {
    indexed_block: number;
    confirmed_block: number;
    last_id: string;
    token: string;
    wallet: string;
  }[];
  head = { indexed_block: s.indexed_block, confirmed_block: s.confirmed_block };
  lastId = s.last_id;
  busiest = { token: s.token, wallet: s.wallet };
});

describe("GET /v1/events/stream", () => {
  it("answers as an unbuffered, uncompressed event stream with the keyed headers", async () => {
    const c = await open("", key, { headers: { "Accept-Encoding": "gzip, br" } });
    opened.push(c);
    expect(c.status).toBe(200);
    expect(c.res.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(c.res.headers["content-encoding"]).toBeUndefined();
    expect(c.res.headers["cache-control"]).toContain("no-transform");
    expect(c.res.headers["x-request-id"]).toMatch(/^req_/);
    expect(c.res.headers["x-ratelimit-limit"]).toBeDefined();
    // Without a position it starts at the head: nothing but the head, whose id is the stream's last event.
    const { events, head: h } = await untilHead(c);
    expect(events).toEqual([]);
    expect(JSON.parse(h.data)).toEqual(head);
    expect(h.id).toBe(lastId);
  });

  it.each([
    ["every event", "", () => ""],
    ["a type", "&type=swap", () => ""],
    ["a token", "", () => `&token_address=${busiest.token}`],
    ["a wallet (as actor or transfer receiver)", "", () => `&wallet_address=${busiest.wallet}`],
  ])("resumes after an id with the events GET /v1/events lists after it: %s", async (_, fixed, filter) => {
    const query = fixed + filter();
    const all = await listed(query, "0");
    expect(all.length).toBeGreaterThan(50);
    // From the start for one filter (a page boundary and more), from near the end for another.
    const after = query ? "0" : (all[all.length - 450].id as string);
    const c = await open(`?after=${after}${query}`, key);
    opened.push(c);
    const { events, head: h } = await untilHead(c);
    expect(events).toEqual(await listed(query, after));
    expect(JSON.parse(h.data)).toEqual(head);
    await c.close();
    // Resuming from the head's id sends nothing again.
    const again = await open(`?after=0${query}`, key, { lastEventId: h.id });
    opened.push(again);
    expect((await untilHead(again)).events).toEqual([]);
    await again.close();
  });

  it("takes Last-Event-ID over after=", async () => {
    const all = await listed("", "0");
    const from = all[all.length - 3].id as string;
    const c = await open("?after=0", key, { lastEventId: from });
    opened.push(c);
    expect((await untilHead(c)).events.map((e) => e.id)).toEqual(all.slice(-2).map((e) => e.id));
    await c.close();
  });

  it("refuses what /v1 refuses, before it opens: no key, bad parameters", async () => {
    const noKey = await fetch(`${baseUrl()}/v1/events/stream`);
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get("www-authenticate")).toContain("Bearer");
    for (const [query, param, lastEventId] of [
      ["?since=2026-01-01T00:00:00Z", "since"],
      ["?token_address=0x12", "token_address"],
      ["?type=mint", "type"],
      ["?after=-1", "after"],
      ["", "Last-Event-ID", "abc"],
    ] as const) {
      const c = await open(query, key, { lastEventId });
      expect(c.status).toBe(400);
      const body = await c.json();
      expect(body.error).toMatchObject({ code: "INVALID_PARAMS", param });
    }
  });

  it("caps concurrent streams per key by plan: none on Free, 5 on Pro; a closed stream frees its place", async () => {
    const free = await open("", (await newKey("free")).key);
    expect(free.status).toBe(403);
    expect((await free.json()).error.code).toBe("FORBIDDEN");

    const pro = (await newKey("pro")).key;
    const five = await Promise.all(Array.from({ length: 5 }, () => open("", pro)));
    opened.push(...five);
    expect(five.map((c) => c.status)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await open("", pro);
    expect(sixth.status).toBe(429);
    expect((await sixth.json()).error.message).toContain("5 event streams open");
    await five[0].close();
    // The server frees the lease when it sees the socket close.
    let again: SseClient;
    for (;;) {
      again = await open("", pro);
      if (again.status !== 429) break;
      await again.closed;
    }
    opened.push(again);
    expect(again.status).toBe(200);
  });

  it("counts one request on opening", async () => {
    const fresh = (await newKey("pro")).key;
    const c = await open("", fresh);
    opened.push(c);
    expect(c.res.headers["x-ratelimit-remaining"]).toBe("59");
    expect((await api("/v1/events?limit=1", { key: fresh })).headers.get("x-ratelimit-remaining")).toBe("58");
    await c.close();
  });

  it("ends a revoked key's streams with a last message saying so", async () => {
    const k = await newKey("pro");
    const c = await open("", k.key);
    opened.push(c);
    await untilHead(c);
    await revokeKey(testDb(), k.id);
    const end = await c.next((m) => m.event === "end");
    expect(JSON.parse(end!.data)).toMatchObject({ reason: "key_revoked" });
    await c.closed;
  });
});
