import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhookSignature } from "@/lib/alerts/webhook";
import { mulberry32 } from "@/lib/random";

/**
 * Loopback stand-ins for the two receivers, real HTTP servers on 127.0.0.1:
 * - a Resend API (POST /emails, and POST /emails/batch of at most 100, all refused if one is
 *   invalid, as strict validation does) that dedupes by Idempotency-Key the way Resend does: the
 *   same key and body answer the first response again without sending, the same key with another
 *   body is 409 invalid_idempotent_request, the same key while the first is in flight is 409
 *   concurrent_idempotent_requests;
 * - a webhook receiver that verifies signatures and dedupes on Webhook-Id, as receivers are told to.
 * Both can fail a share of requests: before processing (500), after processing (500: the
 * sender retries something already done) or by dropping the connection after processing.
 */
export type Faults = { rate: number; seed?: number; delayMs?: number };

type Fault = "none" | "before" | "after" | "drop";

function faultPicker({ rate, seed = 1 }: Faults) {
  const random = mulberry32(seed);
  const modes: Fault[] = ["before", "after", "drop"];
  return (): Fault => (random() < rate ? modes[Math.floor(random() * modes.length)] : "none");
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {
  const server = createServer((req, res) => {
    handler(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** Answers a request after processing it, or fails as `fault` says. */
async function finish(res: ServerResponse, fault: Fault, delayMs: number, status: number, body: unknown) {
  if (delayMs) await sleep(delayMs);
  if (fault === "drop") return void res.socket?.destroy();
  if (fault === "after") return json(res, 500, { statusCode: 500, name: "internal_server_error", message: "injected" });
  json(res, status, body);
}

/** An email as sent: `key` is the Idempotency-Key of the call it came in, `ref` its X-Entity-Ref-ID header. */
export type SentEmail = {
  id: string;
  key: string | undefined;
  ref: string | undefined;
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
};
type EmailBody = Omit<SentEmail, "id" | "key" | "ref"> & { headers?: Record<string, string> };

/** Resend's limit of messages in a batch call. */
const BATCH_LIMIT = 100;

export async function startFakeResend(faults: Faults = { rate: 0 }) {
  const pick = faultPicker(faults);
  const keys = new Map<string, { bodyHash: string; response: unknown }>();
  const fake = {
    /** Emails actually sent (what the recipients get). */
    sent: [] as SentEmail[],
    requests: 0,
    /** Requests to the batch endpoint, and the most messages one sent. */
    batchRequests: 0,
    largestBatch: 0,
    requestsByKey: new Map<string, number>(),
    /** Called on each request as it arrives (the kill test times its SIGKILL with it). */
    onRequest: undefined as (() => void) | undefined,
  };

  const server = await listen(async (req, res) => {
    const body = await readBody(req);
    fake.requests++;
    fake.onRequest?.();
    const batch = req.url === "/emails/batch";
    if (req.method !== "POST" || (req.url !== "/emails" && !batch)) {
      return json(res, 404, { statusCode: 404, name: "not_found", message: "Not found" });
    }
    if (!/^Bearer \S+$/.test(req.headers.authorization ?? "")) {
      return json(res, 401, { statusCode: 401, name: "missing_api_key", message: "Missing API key" });
    }
    if (batch) fake.batchRequests++;
    const fault = pick();
    if (fault === "before")
      return json(res, 500, { statusCode: 500, name: "internal_server_error", message: "injected" });
    const key = req.headers["idempotency-key"] as string | undefined;
    const bodyHash = createHash("sha256").update(body).digest("hex");
    if (key) {
      fake.requestsByKey.set(key, (fake.requestsByKey.get(key) ?? 0) + 1);
      const seen = keys.get(key);
      if (seen && seen.bodyHash !== bodyHash) {
        return json(res, 409, {
          statusCode: 409,
          name: "invalid_idempotent_request",
          message: "Same key, different payload",
        });
      }
      if (seen && !seen.response) {
        return json(res, 409, {
          statusCode: 409,
          name: "concurrent_idempotent_requests",
          message: "Request in progress",
        });
      }
      if (seen) return finish(res, fault, faults.delayMs ?? 0, 200, seen.response);
      keys.set(key, { bodyHash, response: null });
    }
    const parsed = JSON.parse(body.toString()) as EmailBody | EmailBody[];
    const emails = batch ? (parsed as EmailBody[]) : [parsed as EmailBody];
    const invalid = (e: EmailBody) => !e.from || !/^[^@\s]+@[^@\s]+$/.test(e.to) || !e.subject || !(e.html || e.text);
    if (!Array.isArray(emails) || emails.length === 0 || emails.length > BATCH_LIMIT || emails.some(invalid)) {
      if (key) keys.delete(key);
      return json(res, 422, { statusCode: 422, name: "validation_error", message: "Missing required field" });
    }
    if (batch) fake.largestBatch = Math.max(fake.largestBatch, emails.length);
    const sent = emails.map(({ headers, ...email }): SentEmail => {
      return { ...email, id: randomUUID(), key, ref: headers?.["X-Entity-Ref-ID"] };
    });
    fake.sent.push(...sent);
    const response = batch ? { data: sent.map((e) => ({ id: e.id })) } : { id: sent[0].id };
    if (key) keys.get(key)!.response = response;
    await finish(res, fault, faults.delayMs ?? 0, 200, response);
  });
  return Object.assign(fake, server);
}

export type WebhookDelivery = { id: string; body: string; verified: boolean };

/** `secrets` maps an alert id (from the body) to its signing secret; `status` other than 2xx refuses everything. */
export async function startWebhookReceiver(secrets: Map<string, string>, faults: Faults = { rate: 0 }, status = 200) {
  const pick = faultPicker(faults);
  const delivered = new Map<string, WebhookDelivery>();
  const all: WebhookDelivery[] = [];
  const server = await listen(async (req, res) => {
    const body = (await readBody(req)).toString();
    const id = String(req.headers["webhook-id"]);
    const alertId = (JSON.parse(body) as { alert?: { id?: string } }).alert?.id ?? "";
    const delivery = { id, body, verified: verifyWebhookSignature(secrets.get(alertId) ?? "", req.headers, body) };
    all.push(delivery);
    const fault = pick();
    if (fault === "before") return json(res, 500, {});
    if (!delivery.verified) return json(res, 401, {});
    if (status >= 300) return json(res, status, {});
    if (!delivered.has(id)) delivered.set(id, delivery);
    await finish(res, fault, faults.delayMs ?? 0, status, {});
  });
  return { ...server, delivered, all };
}
