import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A loopback stand-in for the parts of the Stripe API the app calls (customers, Checkout and
 * billing portal sessions, subscription retrieval, billing meter events), with Stripe's
 * idempotency-key replay and meter events counted once per identifier, plus what Stripe does on its side:
 * completing a checkout, renewing, failing a payment, cancelling. Each of those returns the
 * Stripe events it causes, for the test to deliver (signed) in whatever order it likes.
 */

type Json = Record<string, unknown>;
export type FakeSubscription = {
  id: string;
  object: "subscription";
  customer: string;
  status: Stripe.Subscription.Status;
  created: number;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  ended_at: number | null;
  metadata: Record<string, string>;
  items: { object: "list"; has_more: false; url: string; data: Json[] };
};
export type RecordedRequest = { method: string; path: string; body: Json; idempotencyKey: string | null };
export type FakeEvent = {
  id: string;
  object: "event";
  type: string;
  created: number;
  api_version: string;
  livemode: false;
  pending_webhooks: 0;
  request: null;
  data: { object: Json };
};

type Failure = { status: number } | { lostResponse: true };

const MONTH = 30 * 86_400;

/** Stripe's form encoding (`a[b][0][c]=v`) back into objects and arrays. */
function parseForm(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: Json = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Json;
    });
  }
  const arrays = (v: unknown): unknown => {
    if (typeof v !== "object" || v === null) return v;
    const entries = Object.entries(v as Json).map(([k, x]) => [k, arrays(x)] as const);
    return entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))
      ? entries.map(([, x]) => x)
      : Object.fromEntries(entries);
  };
  return arrays(root) as Json;
}

export async function startStripeFake(options: { now: number }) {
  /** Stripe's clock, in Unix seconds; tests move it, nothing reads the wall clock. */
  let now = options.now;
  let serial = 0;
  const nextId = (prefix: string) => `${prefix}_fake${String(++serial).padStart(6, "0")}`;
  const customers = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, FakeSubscription>();
  const meterEvents = new Map<string, Json>();
  const idempotent = new Map<string, { status: number; body: Json }>();
  const requests: RecordedRequest[] = [];
  /**
   * Requests to fail, each once: answered with an error status (Stripe down), or processed and
   * then cut off before the answer (the response lost on the way: the caller cannot tell).
   */
  const failures: { path: string; failure: Failure }[] = [];
  let baseUrl = "";

  const error = (status: number, message: string) => ({
    status,
    body: { error: { type: "invalid_request_error", message } },
  });

  function route(method: string, path: string, body: Json): { status: number; body: Json } {
    if (method === "POST" && path === "/v1/customers") {
      const customer = {
        id: nextId("cus"),
        object: "customer",
        created: now,
        email: body.email ?? null,
        metadata: body.metadata ?? {},
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      if (!customers.has(String(body.customer))) return error(400, `No such customer: ${String(body.customer)}`);
      const id = nextId("cs");
      const session = {
        id,
        object: "checkout.session",
        created: now,
        mode: body.mode,
        customer: body.customer,
        client_reference_id: body.client_reference_id ?? null,
        status: "open",
        subscription: null,
        url: `${baseUrl}/pay/${id}`,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        line_items_requested: body.line_items,
      };
      sessions.set(id, session);
      return { status: 200, body: session };
    }
    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      if (!customers.has(String(body.customer))) return error(400, `No such customer: ${String(body.customer)}`);
      const id = nextId("bps");
      return {
        status: 200,
        body: {
          id,
          object: "billing_portal.session",
          created: now,
          customer: body.customer,
          return_url: body.return_url,
          url: `${baseUrl}/portal/${id}`,
        },
      };
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (method === "GET" && sub) {
      const found = subscriptions.get(sub[1]);
      return found ? { status: 200, body: structuredClone(found) } : error(404, `No such subscription: '${sub[1]}'`);
    }
    if (method === "POST" && path === "/v1/billing/meter_events") {
      const identifier = String(body.identifier);
      const event = {
        object: "billing.meter_event",
        created: now,
        event_name: body.event_name,
        identifier,
        payload: body.payload,
        timestamp: Number(body.timestamp),
        livemode: false,
      };
      // Stripe accepts a repeated identifier and drops it while aggregating: the first one counts.
      if (!meterEvents.has(identifier)) meterEvents.set(identifier, event);
      return { status: 200, body: event };
    }
    return error(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? "GET";
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    const body = parseForm(Buffer.concat(chunks).toString("utf8"));
    const idempotencyKey = (req.headers["idempotency-key"] as string | undefined) ?? null;
    requests.push({ method, path, body, idempotencyKey });
    const index = failures.findIndex((f) => f.path === path);
    const failure = index >= 0 ? failures.splice(index, 1)[0].failure : null;
    if (failure && "status" in failure) {
      const answer = error(failure.status, "Injected failure.");
      res.writeHead(answer.status, { "Content-Type": "application/json" });
      return void res.end(JSON.stringify(answer.body));
    }
    let answer: { status: number; body: Json };
    if (idempotencyKey && idempotent.has(idempotencyKey)) answer = idempotent.get(idempotencyKey)!;
    else {
      answer = route(method, path, body);
      if (idempotencyKey && method === "POST" && answer.status < 500) idempotent.set(idempotencyKey, answer);
    }
    if (failure) return void res.destroy();
    res.writeHead(answer.status, { "Content-Type": "application/json", "Request-Id": `req_${serial}` });
    res.end(JSON.stringify(answer.body));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: { type: "api_error", message: String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const event = (type: string, object: Json): FakeEvent => ({
    id: nextId("evt"),
    object: "event",
    type,
    created: now,
    api_version: "2026-10-28.endive",
    livemode: false,
    pending_webhooks: 0,
    request: null,
    data: { object: structuredClone(object) },
  });
  const subscription = (id: string) => {
    const found = subscriptions.get(id);
    if (!found) throw new Error(`no subscription ${id}`);
    return found;
  };
  const invoice = (s: FakeSubscription, status: "paid" | "open") => ({
    id: nextId("in"),
    object: "invoice",
    customer: s.customer,
    status,
    parent: { type: "subscription_details", subscription_details: { subscription: s.id, metadata: s.metadata } },
  });

  return {
    url: baseUrl,
    requests,
    meterEvents,
    subscription,
    /** Moves Stripe's clock. */
    advance: (seconds: number) => void (now += seconds),
    now: () => now,
    /** The next `times` requests to `path` fail as `failure` says. */
    failNext: (path: string, failure: Failure, times = 1) => {
      for (let i = 0; i < times; i++) failures.push({ path, failure });
    },

    /** The customer pays: the session's subscription starts, active for a month. */
    completeCheckout(sessionId: string): { subscription: FakeSubscription; events: FakeEvent[] } {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      const lines = session.line_items_requested as { price: string; quantity?: string }[];
      const s: FakeSubscription = {
        id: nextId("sub"),
        object: "subscription",
        customer: String(session.customer),
        status: "active",
        created: now,
        cancel_at: null,
        cancel_at_period_end: false,
        ended_at: null,
        metadata: {},
        items: {
          object: "list",
          has_more: false,
          url: "/v1/subscription_items",
          data: lines.map((l) => ({
            id: nextId("si"),
            object: "subscription_item",
            price: { id: l.price, object: "price" },
            quantity: l.quantity ? Number(l.quantity) : undefined,
            current_period_start: now,
            current_period_end: now + MONTH,
          })),
        },
      };
      subscriptions.set(s.id, s);
      Object.assign(session, { status: "complete", subscription: s.id });
      return {
        subscription: s,
        events: [
          event("customer.subscription.created", s),
          event("checkout.session.completed", session),
          event("invoice.paid", invoice(s, "paid")),
        ],
      };
    },
    /** A new period starts and its invoice is paid. */
    renew(id: string): FakeEvent[] {
      const s = subscription(id);
      for (const item of s.items.data)
        Object.assign(item, {
          current_period_start: item.current_period_end,
          current_period_end: Number(item.current_period_end) + MONTH,
        });
      s.status = "active";
      return [event("customer.subscription.updated", s), event("invoice.paid", invoice(s, "paid"))];
    },
    /** The renewal's payment fails: past due while Stripe retries. */
    failPayment(id: string): FakeEvent[] {
      const s = subscription(id);
      for (const item of s.items.data)
        Object.assign(item, {
          current_period_start: item.current_period_end,
          current_period_end: Number(item.current_period_end) + MONTH,
        });
      s.status = "past_due";
      return [event("invoice.payment_failed", invoice(s, "open")), event("customer.subscription.updated", s)];
    },
    /** Cancelled in the portal: it runs to the end of the period. */
    cancelAtPeriodEnd(id: string): FakeEvent[] {
      const s = subscription(id);
      s.cancel_at_period_end = true;
      s.cancel_at = Math.max(...s.items.data.map((i) => Number(i.current_period_end)));
      return [event("customer.subscription.updated", s)];
    },
    /** The subscription ends (the period of a cancellation ran out, or Stripe gave up on payment). */
    end(id: string): FakeEvent[] {
      const s = subscription(id);
      Object.assign(s, { status: "canceled", ended_at: now });
      return [event("customer.subscription.deleted", s)];
    },
    /** The body and Stripe-Signature header Stripe would send for an event. */
    sign(e: FakeEvent, secret: string, timestamp?: number): { payload: string; signature: string } {
      const payload = JSON.stringify(e);
      return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }) };
    },
    /** Posts an event to the app's webhook endpoint, signed. */
    async deliver(endpoint: string, e: FakeEvent, secret: string): Promise<{ status: number; body: unknown }> {
      const { payload, signature } = this.sign(e, secret);
      const res = await fetch(endpoint, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
        body: payload,
      });
      return { status: res.status, body: await res.json() };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type StripeFake = Awaited<ReturnType<typeof startStripeFake>>;
