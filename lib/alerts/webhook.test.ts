import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhook, verifyWebhookSignature, WEBHOOK_ERRORS, webhookHeaders, webhookTransport } from "./webhook";
import { isGlobalUnicast } from "./webhook-target";

const SECRET = "whsec_0123456789abcdefghijklmnopqrstuv";
const BODY = JSON.stringify({ id: "ntf_1", type: "alert.triggered", total_matches: 1 });
const NOW = Date.UTC(2031, 0, 1);

describe("webhook signatures", () => {
  const headers = webhookHeaders("ntf_1", SECRET, BODY, NOW);

  it("verify for the body and secret they were made with", () => {
    expect(headers["webhook-id"]).toBe("ntf_1");
    expect(headers["webhook-signature"]).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(SECRET, headers, BODY, 300, NOW)).toBe(true);
    expect(verifyWebhookSignature(SECRET, new Headers(headers), Buffer.from(BODY), 300, NOW)).toBe(true);
  });

  it("fail for a tampered body, another secret, or a tampered timestamp", () => {
    expect(
      verifyWebhookSignature(SECRET, headers, BODY.replace('"total_matches":1', '"total_matches":2'), 300, NOW),
    ).toBe(false);
    expect(verifyWebhookSignature(`${SECRET}x`, headers, BODY, 300, NOW)).toBe(false);
    const moved = { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) + 1) };
    expect(verifyWebhookSignature(SECRET, moved, BODY, 300, NOW)).toBe(false);
  });

  it("reject timestamps outside the tolerance either way (replays)", () => {
    expect(verifyWebhookSignature(SECRET, headers, BODY, 300, NOW + 299_000)).toBe(true);
    expect(verifyWebhookSignature(SECRET, headers, BODY, 300, NOW + 301_000)).toBe(false);
    expect(verifyWebhookSignature(SECRET, headers, BODY, 300, NOW - 301_000)).toBe(false);
  });

  it("accept any one valid entry among several, and refuse malformed headers", () => {
    const ts = headers["webhook-timestamp"];
    const rotated = { ...headers, "webhook-signature": `v1=${"0".repeat(64)} ${headers["webhook-signature"]}` };
    expect(verifyWebhookSignature(SECRET, rotated, BODY, 300, NOW)).toBe(true);
    for (const bad of [
      {},
      { "webhook-timestamp": ts },
      { "webhook-timestamp": "soon", "webhook-signature": headers["webhook-signature"] },
    ]) {
      expect(verifyWebhookSignature(SECRET, bad, BODY, 300, NOW)).toBe(false);
    }
    expect(
      verifyWebhookSignature(
        SECRET,
        { ...headers, "webhook-signature": `v1=${signWebhook(SECRET, ts, BODY)}0` },
        BODY,
        300,
        NOW,
      ),
    ).toBe(false);
  });
});

describe("webhook transport", () => {
  const received: { headers: Record<string, unknown>; body: string }[] = [];
  let status = 200;
  let delayMs = 0;
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    received.push({ headers: req.headers, body });
    setTimeout(() => res.writeHead(status).end("ok"), delayMs);
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));

  it("posts the body signed, with the id and timestamp headers", async () => {
    const result = await webhookTransport({ timeoutMs: 2_000, allowPrivate: true }).send(
      `http://127.0.0.1:${port}/hook`,
      SECRET,
      "ntf_9",
      BODY,
    );
    expect(result).toEqual({ ok: true });
    const last = received.at(-1)!;
    expect(last.body).toBe(BODY);
    expect(last.headers["webhook-id"]).toBe("ntf_9");
    expect(verifyWebhookSignature(SECRET, last.headers as Record<string, string>, last.body)).toBe(true);
  });

  it("refuses private and loopback targets unless allowed, by address and by name, without connecting", async () => {
    const before = received.length;
    const transport = webhookTransport({ timeoutMs: 2_000, allowPrivate: false });
    for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, `http://[::1]:${port}/`]) {
      const result = await transport.send(url, SECRET, "ntf_x", BODY);
      expect(result, url).toMatchObject({ ok: false, permanent: true, error: WEBHOOK_ERRORS.notPublic });
    }
    expect(received.length).toBe(before);
  });

  it("reports non-2xx answers and timeouts as failures to retry", async () => {
    const transport = webhookTransport({ timeoutMs: 300, allowPrivate: true });
    status = 503;
    expect(await transport.send(`http://127.0.0.1:${port}/`, SECRET, "ntf_a", BODY)).toEqual({
      ok: false,
      error: WEBHOOK_ERRORS.status(503),
      permanent: false,
    });
    status = 200;
    delayMs = 1_000;
    expect(await transport.send(`http://127.0.0.1:${port}/`, SECRET, "ntf_b", BODY)).toMatchObject({
      ok: false,
      permanent: false,
      error: WEBHOOK_ERRORS.noAnswer(300),
    });
    delayMs = 0;
  });
});

describe("webhook targets", () => {
  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80e::200e",
    // NAT64 (DNS64 networks) and 6to4 wrapping a public IPv4 address reach that address.
    "64:ff9b::808:808",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
  ])("accept the global unicast address %s", (ip) => expect(isGlobalUnicast(ip)).toBe(true));

  it.each([
    ["loopback", "127.0.0.1"],
    ["private", "10.1.2.3"],
    ["private", "172.16.0.1"],
    ["private", "192.168.1.1"],
    ["shared (CGNAT)", "100.64.0.1"],
    ["link-local (cloud metadata)", "169.254.169.254"],
    ["this network", "0.0.0.0"],
    ["documentation", "203.0.113.7"],
    ["benchmarking", "198.18.0.1"],
    ["multicast", "224.0.0.1"],
    ["broadcast", "255.255.255.255"],
    ["IPv6 loopback", "::1"],
    ["IPv6 unspecified", "::"],
    ["unique local", "fd00::1"],
    ["IPv6 link-local", "fe80::1"],
    ["IPv6 link-local with a zone", "fe80::1%eth0"],
    ["IPv6 multicast", "ff02::1"],
    ["IPv4-mapped", "::ffff:127.0.0.1"],
    ["IPv4-mapped, public", "::ffff:8.8.8.8"],
    ["IPv4-mapped, hex", "::ffff:7f00:1"],
    ["IPv4-compatible", "::127.0.0.1"],
    ["IPv4-compatible, public", "::8.8.8.8"],
    ["NAT64 of loopback", "64:ff9b::7f00:1"],
    ["NAT64 of private", "64:ff9b::10.0.0.1"],
    ["NAT64 of metadata", "64:ff9b::a9fe:a9fe"],
    ["local-use NAT64", "64:ff9b:1::a00:1"],
    ["6to4 of loopback", "2002:7f00:1::"],
    ["6to4 of private", "2002:c0a8:101::1"],
    ["Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["IPv6 documentation", "2001:db8::1"],
    ["discard-only", "100::1"],
    ["bracketed loopback", "[::1]"],
    ["not an address", "localhost"],
  ])("refuse %s (%s)", (_kind, ip) => expect(isGlobalUnicast(ip)).toBe(false));
});
