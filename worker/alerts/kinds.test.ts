import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resendTransport } from "@/lib/alerts/email";
import type { AlertEvent } from "@/lib/alerts/payload";
import { previewAlert } from "@/lib/alerts/preview";
import { updateAlert } from "@/lib/alerts/service";
import { webhookTransport } from "@/lib/alerts/webhook";
import { changePlan } from "@/lib/billing/plan-change";
import type { AlertDefinition, WalletAction } from "@/lib/domain/alert-conditions";
import { Forbidden } from "@/lib/domain/errors";
import { AlertEvaluator } from "./evaluate";
import { deliverDue } from "./outbox";
import { startFakeResend, startWebhookReceiver } from "./test/fake-servers";
import {
  addBlock,
  alertsDatabase,
  minutes,
  newAddress,
  newAlertOf,
  newOwner,
  notificationsOf,
  seconds,
  setHead,
  setToken,
  setWallet,
  T0,
} from "./test/fixtures";

let t: Awaited<ReturnType<typeof alertsDatabase>>;
beforeAll(async () => {
  t = await alertsDatabase();
});
let evaluator: AlertEvaluator;
beforeEach(async () => {
  await t.reset();
  evaluator = new AlertEvaluator();
});
afterAll(async () => {
  await t?.close();
});

type Match = { address: string; values: object };
type Payload = { alert: { kind: string }; events?: AlertEvent[]; total_events?: number; matches: Match[] };
const payloadOf = (n: { payload: unknown }) => n.payload as Payload;
const eventIds = (n: { payload: unknown }) => payloadOf(n).events?.map((e) => e.id) ?? [];

const swap = (direction: "buy" | "sell") => (wallet: string, token: string, amountUsd?: number) =>
  ({ type: "swap", direction, wallet, token, amountUsd }) as const;
const [buy, sell] = [swap("buy"), swap("sell")];
const watch = (wallet: string, ...actions: WalletAction[]) => {
  return { kind: "wallet", conditions: { wallet_address: wallet, actions } } as const;
};
const idsOf = async (alertId: string) => (await notificationsOf(t.sql, alertId)).map(eventIds);

/** The chain up to T0 indexed, and one evaluation there: event alerts start at the head they first see. */
async function startChain() {
  await addBlock(t.sql, T0);
  await evaluator.evaluate(t.sql, T0);
}

describe("wallet alerts", { timeout: 60_000 }, () => {
  it("fire once per block batch for the watched actions, listing the events, and never again for them", async () => {
    const owner = await newOwner(t.db);
    const [w, other, a, b] = [newAddress(), newAddress(), newAddress(), newAddress()];
    await setToken(t.sql, a, { symbol: "AAA" });
    await startChain();
    const alert = await newAlertOf(t.db, owner, watch(w, "buy", "receive"));
    const onlyB = await newAlertOf(t.db, owner, {
      kind: "wallet",
      conditions: { wallet_address: w, actions: ["sell"], token_address: b, min_amount_usd: 1_000 },
    });

    const block = await addBlock(t.sql, seconds(T0, 2), [
      buy(w, a, 250),
      sell(w, a),
      { type: "transfer", wallet: other, to: w, token: a, amountUsd: 40 },
      buy(other, a),
      sell(w, b, 999),
      sell(w, b, 5_000),
    ]);
    const report = await evaluator.evaluate(t.sql, seconds(T0, 2));
    expect(report.events).toMatchObject({ blocks: 1, events: 3, fired: 2 });

    const [n] = await notificationsOf(t.sql, alert.id);
    expect(eventIds(n)).toEqual([block.ids[0], block.ids[2]]);
    expect(payloadOf(n).events).toEqual([
      expect.objectContaining({
        type: "buy",
        wallet_address: w,
        from_address: null,
        token_address: a,
        amount_usd: 250,
      }),
      expect.objectContaining({
        type: "receive",
        wallet_address: w,
        from_address: other,
        amount_usd: 40,
        symbol: "AAA",
      }),
    ]);
    expect(payloadOf(n)).toMatchObject({ alert: { kind: "wallet" }, total_events: 2, matches: [] });
    expect(payloadOf(n).events?.[0].block_number).toBe(block.number);
    expect(await idsOf(onlyB.id)).toEqual([[block.ids[5]]]);

    // The next block brings one more buy: a notification of its own, without the earlier events.
    const next = await addBlock(t.sql, seconds(T0, 4), [buy(w, a)]);
    await addBlock(t.sql, seconds(T0, 6));
    await evaluator.evaluate(t.sql, seconds(T0, 6));
    expect(await idsOf(alert.id)).toEqual([[block.ids[0], block.ids[2]], [next.ids[0]]]);
  });

  it("fire for a token the wallet launches", async () => {
    const owner = await newOwner(t.db);
    const creator = newAddress();
    await startChain();
    const alert = await newAlertOf(t.db, owner, watch(creator, "launch"));
    const block = await addBlock(t.sql, seconds(T0, 2));
    const token = newAddress();
    await setToken(t.sql, token, { creator, createdBlock: block.number, symbol: "NEW", createdAt: seconds(T0, 2) });
    await setToken(t.sql, newAddress(), { creator: newAddress(), createdBlock: block.number });
    await evaluator.evaluate(t.sql, seconds(T0, 2));
    const [n] = await notificationsOf(t.sql, alert.id);
    const launch = { id: `launch:${token}`, type: "launch", wallet_address: creator, token_address: token };
    expect(payloadOf(n).events).toEqual([expect.objectContaining(launch)]);
  });

  it("make the same notification once when a batch is evaluated again, and read blocks a reorg replaced", async () => {
    const owner = await newOwner(t.db);
    const [w, a] = [newAddress(), newAddress()];
    await startChain();
    const alert = await newAlertOf(t.db, owner, watch(w, "buy"));
    const first = await addBlock(t.sql, seconds(T0, 2), [buy(w, a)]);
    await evaluator.evaluate(t.sql, seconds(T0, 2));
    // The batch read again (its blocks forgotten): the same events make the same notification, kept once.
    await t.sql`delete from alert_event_blocks where number = ${first.number}`;
    await evaluator.evaluate(t.sql, seconds(T0, 2));
    expect(await idsOf(alert.id)).toEqual([[first.ids[0]]]);

    // A reorg replaces the block: its events go, the new branch's block numbers its own after them.
    await t.sql`delete from events where block_number = ${first.number}`;
    await t.sql`delete from blocks where number = ${first.number}`;
    const replaced = await addBlock(t.sql, seconds(T0, 2), [buy(w, a)], {
      number: first.number,
      hash: `0x${"e".repeat(64)}`,
      firstId: Number(first.ids[0]) + 1,
    });
    await addBlock(t.sql, seconds(T0, 4), [sell(w, a)]);
    await evaluator.evaluate(t.sql, seconds(T0, 4));
    expect(await idsOf(alert.id)).toEqual([[first.ids[0]], [replaced.ids[0]]]);
  });

  it("pass over events older than the status lag threshold: a worker catching up announces no past", async () => {
    const owner = await newOwner(t.db);
    const [w, a] = [newAddress(), newAddress()];
    await startChain();
    const alert = await newAlertOf(t.db, owner, watch(w, "buy", "sell"));
    await addBlock(t.sql, minutes(T0, 10), [buy(w, a)]);
    const recent = await addBlock(t.sql, minutes(T0, 30), [sell(w, a)]);
    await evaluator.evaluate(t.sql, minutes(T0, 30));
    expect(await idsOf(alert.id)).toEqual([[recent.ids[0]]]);
  });

  it("keep a paused alert silent, and fire on what comes after it resumes", async () => {
    const owner = await newOwner(t.db);
    const [w, a] = [newAddress(), newAddress()];
    await startChain();
    const alert = await newAlertOf(t.db, owner, watch(w, "buy"));
    await updateAlert(t.db, owner, alert.id, { status: "paused" });
    await addBlock(t.sql, seconds(T0, 2), [buy(w, a)]);
    await evaluator.evaluate(t.sql, seconds(T0, 2));
    await updateAlert(t.db, owner, alert.id, { status: "active" });
    const after = await addBlock(t.sql, seconds(T0, 4), [buy(w, a)]);
    await evaluator.evaluate(t.sql, seconds(T0, 4));
    expect(await idsOf(alert.id)).toEqual([[after.ids[0]]]);
  });
});

describe("smart-money alerts", { timeout: 60_000 }, () => {
  it("fire on buys by wallets classified smart_money, of one token or of any", async () => {
    const owner = await newOwner(t.db, "pro");
    const [smart, plain, a, b] = [newAddress(), newAddress(), newAddress(), newAddress()];
    await setWallet(t.sql, smart, "smart_money");
    await setWallet(t.sql, plain, "retail");
    await startChain();
    const any = await newAlertOf(t.db, owner, { kind: "smart_money", conditions: {} });
    const ofB = await newAlertOf(t.db, owner, {
      kind: "smart_money",
      conditions: { token_address: b, min_amount_usd: 500 },
    });
    const batch = [buy(smart, a), sell(smart, b), buy(plain, b, 10_000), buy(smart, b, 600), buy(smart, b, 400)];
    const block = await addBlock(t.sql, seconds(T0, 2), batch);
    await evaluator.evaluate(t.sql, seconds(T0, 2));
    expect(await idsOf(any.id)).toEqual([[block.ids[0], block.ids[3], block.ids[4]]]);
    expect(await idsOf(ofB.id)).toEqual([[block.ids[3]]]);
  });

  it("are refused on Free, and a downgrade pauses them", async () => {
    const free = await newOwner(t.db, "free");
    await expect(newAlertOf(t.db, free, { kind: "smart_money", conditions: {} })).rejects.toBeInstanceOf(Forbidden);
    const wallet = await newAlertOf(t.db, free, watch(newAddress(), "buy"));
    const toSmartMoney = updateAlert(t.db, free, wallet.id, { kind: "smart_money", conditions: {} });
    await expect(toSmartMoney).rejects.toBeInstanceOf(Forbidden);

    const pro = await newOwner(t.db, "pro");
    const alert = await newAlertOf(t.db, pro, { kind: "smart_money", conditions: {} });
    expect((await changePlan(t.db, pro.accountId, "free", T0))?.pausedAlerts).toBe(1);
    await expect(updateAlert(t.db, pro, alert.id, { status: "active" })).rejects.toBeInstanceOf(Forbidden);
  });
});

describe("price alerts", { timeout: 60_000 }, () => {
  it("fire when the price reaches the level, and again only after it went back and returned", async () => {
    const owner = await newOwner(t.db);
    const token = newAddress();
    await setToken(t.sql, token, { priceUsd: 0.8, symbol: "PRC" });
    const above = { kind: "price", conditions: { token_address: token, crosses: "above", price_usd: 1 } } as const;
    const alert = await newAlertOf(t.db, owner, above);
    await evaluator.evaluate(t.sql, T0);
    await setToken(t.sql, token, { priceUsd: 1.25 });
    await evaluator.evaluate(t.sql, minutes(T0, 1));
    await setToken(t.sql, token, { priceUsd: 1.5 });
    await evaluator.evaluate(t.sql, minutes(T0, 30));
    const sent = await notificationsOf(t.sql, alert.id);
    const reached = expect.objectContaining({ address: token, values: { price_usd: 1.25 } });
    expect(sent.map((n) => payloadOf(n).matches)).toEqual([[reached]]);

    await setToken(t.sql, token, { priceUsd: 0.9 });
    await evaluator.evaluate(t.sql, minutes(T0, 31));
    await setToken(t.sql, token, { priceUsd: 1.1 });
    await evaluator.evaluate(t.sql, minutes(T0, 32));
    expect(await notificationsOf(t.sql, alert.id)).toHaveLength(2);
  });

  it("fire on a move by a percentage within a window, and not for a token without a price", async () => {
    const owner = await newOwner(t.db);
    const [token, unpriced] = [newAddress(), newAddress()];
    await setToken(t.sql, token, { priceUsd: 2, priceChange1hPct: 5 });
    await setToken(t.sql, unpriced, { priceUsd: 0, priceChange1hPct: null });
    const move = {
      kind: "price",
      conditions: { token_address: token, moves: "either", change_pct: 20, window: "1h" },
    } as const;
    const alert = await newAlertOf(t.db, owner, move);
    const dip = { kind: "price", conditions: { token_address: unpriced, crosses: "below", price_usd: 1 } } as const;
    const below = await newAlertOf(t.db, owner, dip);
    await evaluator.evaluate(t.sql, T0);
    await setToken(t.sql, token, { priceUsd: 1.5, priceChange1hPct: -25 });
    await evaluator.evaluate(t.sql, minutes(T0, 1));
    const [n] = await notificationsOf(t.sql, alert.id);
    expect(payloadOf(n).matches[0].values).toEqual({ price_usd: 1.5, price_change_1h_pct: -25 });
    expect(await notificationsOf(t.sql, below.id)).toEqual([]);
  });
});

const fast = { backoffMs: 5, maxBackoffMs: 20, appUrl: "https://intel.example" };
const mailer = (baseUrl: string) =>
  resendTransport({ apiKey: "re_test", baseUrl, from: "Alerts <a@example.com>", timeoutMs: 2_000 });

/** Each kind: the alert, and what makes it fire once after the chain started. */
type Define = (token: string, wallet: string) => AlertDefinition;
type Happen = (token: string, wallet: string) => Promise<unknown>;
const KINDS: [string, Define, Happen][] = [
  [
    "wallet",
    (_token, wallet) => watch(wallet, "sell"),
    (token, wallet) => addBlock(t.sql, seconds(T0, 2), [sell(wallet, token)]),
  ],
  [
    "price",
    (token) => ({ kind: "price", conditions: { token_address: token, crosses: "below", price_usd: 0.5 } }),
    (token) => setToken(t.sql, token, { priceUsd: 0.25 }),
  ],
  [
    "smart_money",
    (token) => ({ kind: "smart_money", conditions: { token_address: token } }),
    async (token, wallet) => {
      await setWallet(t.sql, wallet, "smart_money");
      await addBlock(t.sql, seconds(T0, 2), [buy(wallet, token)]);
    },
  ],
];

describe("delivery of every kind", { timeout: 60_000 }, () => {
  it.each(KINDS)("delivers a %s alert once by email and once by webhook", async (kind, define, happen) => {
    const resend = await startFakeResend();
    const secrets = new Map<string, string>();
    const hooks = await startWebhookReceiver(secrets);
    try {
      const owner = await newOwner(t.db, "pro");
      const [token, wallet] = [newAddress(), newAddress()];
      await setToken(t.sql, token, { priceUsd: 1, symbol: "TKN" });
      await startChain();
      const byEmail = await newAlertOf(t.db, owner, define(token, wallet));
      const webhook = { notification_channel: "webhook", webhook_url: `${hooks.url}/in` } as const;
      const byHook = await newAlertOf(t.db, owner, define(token, wallet), webhook);
      if ("webhook_secret" in byHook && byHook.webhook_secret) secrets.set(byHook.id, byHook.webhook_secret);

      await happen(token, wallet);
      const transports = {
        email: mailer(resend.url),
        webhook: webhookTransport({ timeoutMs: 2_000, allowPrivate: true }),
        ...fast,
      };
      for (const s of [2, 4, 60]) {
        await evaluator.evaluate(t.sql, seconds(T0, s));
        await deliverDue(t.sql, transports);
      }

      const rows = await notificationsOf(t.sql);
      const [email, hook] = [byEmail, byHook].map((a) => rows.filter((r) => r.alertId === a.id));
      expect([...email, ...hook].map((r) => [r.channel, r.status])).toEqual([
        ["email", "sent"],
        ["webhook", "sent"],
      ]);
      expect(rows).toHaveLength(2);
      expect(resend.sent.map((m) => [m.to, m.key])).toEqual([[owner.email, email[0].idempotencyKey]]);
      expect(resend.sent[0].text).toContain(kind === "price" ? "reaches $0.5 or below" : "TKN");
      const [delivered] = [...hooks.delivered.values()];
      expect(hooks.delivered.size).toBe(1);
      expect(delivered.verified).toBe(true);
      const body = JSON.parse(delivered.body);
      expect(body).toMatchObject({
        id: hook[0].idempotencyKey,
        type: "alert.triggered",
        alert: { id: byHook.id, kind },
      });
      const match = expect.objectContaining({ address: token, values: { price_usd: 0.25 } });
      if (kind === "price") expect(body.matches).toEqual([match]);
      else expect(body.events).toEqual([expect.objectContaining({ token_address: token, wallet_address: wallet })]);
    } finally {
      await resend.close();
      await hooks.close();
    }
  });
});

describe("the builder's preview of the last day", { timeout: 60_000 }, () => {
  it("lists the events a wallet alert would have fired on, one notification per block", async () => {
    const [w, a] = [newAddress(), newAddress()];
    await setToken(t.sql, a, { symbol: "DAY" });
    await addBlock(t.sql, minutes(T0, -25 * 60), [buy(w, a)]);
    const earlier = await addBlock(t.sql, minutes(T0, -60), [buy(w, a), sell(w, a), buy(w, a)]);
    const latest = await addBlock(t.sql, minutes(T0, -1), [buy(w, a), buy(newAddress(), a)]);
    await setHead(t.sql, latest.number, minutes(T0, -1));
    const preview = await previewAlert(t.db, watch(w, "buy"));
    expect(preview).toMatchObject({ kind: "wallet", notifications: 2, total_events: 3, firings: [] });
    expect(preview.to).toBe(minutes(T0, -1).toISOString());
    expect(preview.events.map((e) => e.id)).toEqual([latest.ids[0], earlier.ids[2], earlier.ids[0]]);
    expect(preview.events[0]).toMatchObject({ type: "buy", symbol: "DAY", wallet_address: w });
  });

  it("replays a price alert over the token's prices after its pool events", async () => {
    const [w, a] = [newAddress(), newAddress()];
    await addBlock(t.sql, minutes(T0, -30 * 60), [{ ...buy(w, a), priceUsd: 0.5 }]);
    await addBlock(t.sql, minutes(T0, -120), [{ ...buy(w, a), priceUsd: 1.5 }]);
    await addBlock(t.sql, minutes(T0, -90), [{ ...sell(w, a), priceUsd: 0.7 }]);
    const last = await addBlock(t.sql, minutes(T0, -30), [{ ...buy(w, a), priceUsd: 1.2 }]);
    await setHead(t.sql, last.number, T0);
    const preview = await previewAlert(t.db, {
      kind: "price",
      conditions: { token_address: a, crosses: "above", price_usd: 1 },
    });
    expect(preview).toMatchObject({ kind: "price", notifications: 2, events: [], total_events: 0 });
    expect(preview.firings.map((f) => [f.at, f.price_usd])).toEqual([
      [minutes(T0, -30).toISOString(), 1.2],
      [minutes(T0, -120).toISOString(), 1.5],
    ]);
  });
});
