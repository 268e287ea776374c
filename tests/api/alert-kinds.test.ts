import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blocks, events, syncState } from "@/db/schema";
import { alertDetail, alert as alertSchema, createdAlert } from "@/lib/api/schemas/alerts";
import { changePlan } from "@/lib/billing/plan-change";
import { type ApiResponse, api, expectError, expectShape, newKey, testDb } from "./helpers";
import { type OwnServer, ownServer, signedIn } from "./own-server";

/**
 * The alert kinds beside the spec's token filter (kind wallet, price, smart_money) through
 * /v1/alerts, and the builder's preview of the last day (POST /api/alerts/preview).
 */
const WALLET = `0x${"Ab".repeat(20)}`;
const TOKEN = `0x${"cd".repeat(20)}`;
const wallet = { wallet_address: WALLET, actions: ["buy", "launch"] };
const price = { token_address: TOKEN, crosses: "above", price_usd: 0.0025 };
const create = (key: string, body: unknown) => api("/v1/alerts", { key, method: "POST", body });
const patch = (key: string, id: string, body: unknown) => api(`/v1/alerts/${id}`, { key, method: "PATCH", body });

describe("POST /v1/alerts with a kind", () => {
  it("creates wallet, price and smart-money alerts, each read back with its kind and conditions", async () => {
    const { key } = await newKey("pro");
    const made = [
      await create(key, { name: "whale", kind: "wallet", conditions: wallet }),
      await create(key, { name: "level", kind: "price", conditions: price }),
      await create(key, { name: "smart", kind: "smart_money", conditions: { min_amount_usd: 1000 } }),
      await create(key, { name: "filter", conditions: { min_liquidity_usd: 1000 } }),
    ];
    expect(made.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const bodies = made.map((r) => expectShape(createdAlert, r.body));
    expect(bodies.map((b) => b.kind)).toEqual(["wallet", "price", "smart_money", "token"]);
    expect(bodies[0].conditions).toEqual({ ...wallet, wallet_address: WALLET.toLowerCase() });
    const detail = expectShape(alertDetail, (await api(`/v1/alerts/${bodies[1].id}`, { key })).body);
    expect(detail).toMatchObject({ kind: "price", conditions: price, deliveries: [] });
    expect((await api("/v1/alerts", { key })).body.data.map((a: { kind: string }) => a.kind).sort()).toEqual([
      "price",
      "smart_money",
      "token",
      "wallet",
    ]);
  });

  it("answers 403 to a smart-money alert on Free, as to its webhook channel", async () => {
    const { key, accountId } = await newKey("free");
    const refused = await create(key, { name: "smart", kind: "smart_money", conditions: {} });
    expectError(refused, 403, "FORBIDDEN", "kind");
    expect(refused.body.error.message).toBe("Smart-money alerts are not available on the Free plan.");
    await changePlan(testDb(), accountId, "pro", new Date());
    expect((await create(key, { name: "smart", kind: "smart_money", conditions: {} })).status).toBe(201);
  });

  const invalid: [string, unknown, string][] = [
    ["an unknown kind", { kind: "tweet", conditions: wallet }, "kind"],
    ["a wallet without its address", { kind: "wallet", conditions: { actions: ["buy"] } }, "conditions.wallet_address"],
    [
      "a malformed wallet",
      { kind: "wallet", conditions: { ...wallet, wallet_address: "0x12" } },
      "conditions.wallet_address",
    ],
    ["no actions", { kind: "wallet", conditions: { ...wallet, actions: [] } }, "conditions.actions"],
    ["an unknown action", { kind: "wallet", conditions: { ...wallet, actions: ["mint"] } }, "conditions.actions.0"],
    ["a repeated action", { kind: "wallet", conditions: { ...wallet, actions: ["buy", "buy"] } }, "conditions.actions"],
    [
      "a negative minimum",
      { kind: "wallet", conditions: { ...wallet, min_amount_usd: -1 } },
      "conditions.min_amount_usd",
    ],
    [
      "a token filter field on a wallet",
      { kind: "wallet", conditions: { ...wallet, max_risk_score: 5 } },
      "conditions",
    ],
    ["wallet conditions without a kind", { conditions: wallet }, "conditions"],
    ["a price without a form", { kind: "price", conditions: { token_address: TOKEN } }, "conditions.crosses"],
    [
      "a level without its price",
      { kind: "price", conditions: { token_address: TOKEN, crosses: "above" } },
      "conditions.price_usd",
    ],
    [
      "a price with both forms",
      { kind: "price", conditions: { ...price, moves: "up", change_pct: 5, window: "1h" } },
      "conditions.moves",
    ],
    [
      "an unknown window",
      { kind: "price", conditions: { token_address: TOKEN, moves: "up", change_pct: 5, window: "2h" } },
      "conditions.window",
    ],
    ["a zero level", { kind: "price", conditions: { ...price, price_usd: 0 } }, "conditions.price_usd"],
    [
      "a smart-money token as a number",
      { kind: "smart_money", conditions: { token_address: 7 } },
      "conditions.token_address",
    ],
  ];
  it.each(invalid)("rejects %s with 400 naming the parameter", async (_name, body, param) => {
    const { key } = await newKey("pro");
    const res = await create(key, { name: "x", ...(body as object) });
    expectError(res, 400, "INVALID_PARAMS", param);
  });
});

describe("PATCH /v1/alerts/{id} of other kinds", () => {
  it("reads conditions as the alert's kind, and changes the kind only with conditions of the new one", async () => {
    const { key } = await newKey("pro");
    const { id } = (await create(key, { name: "whale", kind: "wallet", conditions: wallet })).body;
    const changed = await patch(key, id, { conditions: { wallet_address: WALLET, actions: ["sell"] } });
    expect(expectShape(alertSchema, changed.body)).toMatchObject({ kind: "wallet", conditions: { actions: ["sell"] } });
    expectError(
      await patch(key, id, { conditions: { wallet_address: WALLET } }),
      400,
      "INVALID_PARAMS",
      "conditions.actions",
    );
    expectError(
      await patch(key, id, { conditions: { min_liquidity_usd: 5 } }),
      400,
      "INVALID_PARAMS",
      "conditions.wallet_address",
    );
    expectError(await patch(key, id, { kind: "price" }), 400, "INVALID_PARAMS", "conditions");
    const toPrice = await patch(key, id, { kind: "price", conditions: price });
    expect(toPrice.body).toMatchObject({ kind: "price", conditions: price });
    expect((await patch(key, id, { kind: "token", conditions: { max_risk_score: 30 } })).body.kind).toBe("token");
    // A token alert's conditions without a kind, as in the spec.
    expect((await patch(key, id, { conditions: { max_risk_score: 20 } })).body).toMatchObject({
      kind: "token",
      conditions: { max_risk_score: 20 },
    });
  });

  it("refuses a Free alert turning smart-money, and resuming one after a downgrade", async () => {
    const { key } = await newKey("free");
    const { id } = (await create(key, { name: "whale", kind: "wallet", conditions: wallet })).body;
    expectError(await patch(key, id, { kind: "smart_money", conditions: {} }), 403, "FORBIDDEN", "kind");
  });
});

/** The preview on a server of its own (sessions need its AUTH_SECRET), over a chain written here. */
describe("POST /api/alerts/preview", () => {
  const ORIGIN = "http://intel.test";
  let server: OwnServer;
  beforeAll(async () => {
    server = await ownServer("oci_alert_preview", () => ({ APP_URL: ORIGIN }));
  });
  afterAll(async () => {
    await server?.close();
  });

  const asResponse = async (res: Response): Promise<ApiResponse> => {
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };
  const HEAD = new Date("2031-03-01T12:00:00.000Z");
  const at = (minutesBefore: number) => new Date(HEAD.getTime() - minutesBefore * 60_000).toISOString();

  it("says what a wallet alert would have fired over the last day of chain time, metered and plan-gated", async () => {
    const w = WALLET.toLowerCase();
    const chain = [
      { number: 100, time: at(25 * 60), directions: ["buy"] },
      { number: 200, time: at(60), directions: ["buy", "sell", "buy"] },
      { number: 300, time: at(1), directions: ["buy"] },
    ];
    for (const b of chain) {
      await server.db
        .insert(blocks)
        .values({ number: b.number, hash: `0x${b.number}`, parentHash: "0x", timestamp: new Date(b.time) });
      await server.db.insert(events).values(
        b.directions.map((direction, i) => ({
          id: b.number * 100_000 + i,
          type: "swap",
          walletAddress: w,
          tokenAddress: TOKEN,
          amountUsd: 10,
          direction,
          blockNumber: b.number,
          logIndex: i,
          txHash: `0x${b.number}${i}`,
          timestamp: new Date(b.time),
        })),
      );
    }
    await server.db.insert(syncState).values({ chainId: 1, indexedBlock: 300, indexedBlockTime: HEAD });

    const { browser, accountId } = await signedIn(server);
    const write = (body: unknown) => ({
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const preview = (body: unknown) => browser.fetch("/api/alerts/preview", write(body)).then(asResponse);

    const res = await preview({ kind: "wallet", conditions: { wallet_address: WALLET, actions: ["buy"] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: "wallet",
      from: at(24 * 60),
      to: HEAD.toISOString(),
      notifications: 2,
      total_events: 3,
    });
    expect(res.body.events.map((e: { id: string }) => e.id)).toEqual(["30000000", "20000002", "20000000"]);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("9");

    expectError(
      await preview({ kind: "wallet", conditions: { actions: ["buy"] } }),
      400,
      "INVALID_PARAMS",
      "conditions.wallet_address",
    );
    expectError(await preview({ kind: "token", conditions: { max_risk_score: 5 } }), 400, "INVALID_PARAMS", "kind");
    expectError(await preview({ kind: "smart_money", conditions: {} }), 403, "FORBIDDEN", "kind");
    await changePlan(server.db, accountId, "pro", new Date());
    expect((await preview({ kind: "smart_money", conditions: {} })).body).toMatchObject({
      notifications: 0,
      total_events: 0,
    });
    expectError(
      await fetch(`${server.baseUrl}/api/alerts/preview`, write({ kind: "smart_money", conditions: {} })).then(
        asResponse,
      ),
      401,
      "UNAUTHORIZED",
    );
  });
});
