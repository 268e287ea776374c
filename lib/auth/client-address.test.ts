import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientAddress, clientMeter, isLoopbackRequest } from "./client-address";
import { parseAddressList } from "./ip";
import { socketAddress, stampSocketAddresses } from "./socket-address";

/**
 * A request as the app sees it after scripts/serve.ts stamped it: from `socket`, with `headers` as the client
 * (or a proxy) sent them.
 */
function request(socket: string | undefined, headers: Record<string, string> = {}): Headers {
  const req = { socket: { remoteAddress: socket }, headers: { ...headers } } as unknown as IncomingMessage;
  stampSocketAddresses()(req);
  return new Headers(req.headers as Record<string, string>);
}

const NONE = parseAddressList("");
const LOCAL_PROXIES = parseAddressList("loopback, 10.0.0.0/8");

describe("client address", () => {
  it("is unknown where no server of ours stamped the connection's address, whatever the headers say", () => {
    // Before any stamping in this process: as under next dev or next start.
    const headers = new Headers({ "x-forwarded-for": "203.0.113.9", "x-onchain-intel-socket-address": "198.51.100.1" });
    expect(socketAddress(headers)).toBeNull();
    expect(clientAddress(headers, LOCAL_PROXIES)).toBeNull();
    expect(clientMeter(headers)).toBe("unknown");
  });

  it("is the connection's address, whatever a client writes, when it is no trusted proxy", () => {
    expect(clientAddress(request("203.0.113.9"), NONE)).toBe("203.0.113.9");
    for (const forged of ["198.51.100.1", "10.0.0.1, 198.51.100.4", "x".repeat(6000), "127.0.0.1"]) {
      expect([
        forged.length,
        clientAddress(request("203.0.113.9", { "x-forwarded-for": forged }), LOCAL_PROXIES),
      ]).toEqual([forged.length, "203.0.113.9"]);
    }
    // The header the server writes, sent by the client itself, is overwritten.
    expect(clientAddress(request("203.0.113.9", { "x-onchain-intel-socket-address": "198.51.100.1" }), NONE)).toBe(
      "203.0.113.9",
    );
    expect(clientAddress(request("::ffff:203.0.113.9"), NONE)).toBe("203.0.113.9");
    expect(clientAddress(request(undefined), NONE)).toBeNull();
  });

  it("behind trusted proxies, is the first untrusted address from the right of X-Forwarded-For", () => {
    const via = (forwarded: string) =>
      clientAddress(request("127.0.0.1", { "x-forwarded-for": forwarded }), LOCAL_PROXIES);
    expect(via("198.51.100.4")).toBe("198.51.100.4");
    expect(via("198.51.100.4, 10.0.0.2")).toBe("198.51.100.4");
    // What the client wrote before its first untrusted hop is never read.
    expect(via("127.0.0.1, 203.0.113.1, 198.51.100.4, 10.0.0.2")).toBe("198.51.100.4");
    // Every hop trusted: the first one.
    expect(via("10.0.0.3, 10.0.0.2")).toBe("10.0.0.3");
    // An entry that is no address ends the walk at the hop that passed it on.
    expect(via("not-an-address, 10.0.0.2")).toBe("10.0.0.2");
    expect(via("x".repeat(6000))).toBe("127.0.0.1");
    expect(clientAddress(request("127.0.0.1", { "x-forwarded-for": "198.51.100.4" }), NONE)).toBe("127.0.0.1");
  });

  it("meters IPv6 visitors by their /64", () => {
    const a = request("2001:db8:aa:bb::1");
    const b = request("2001:db8:aa:bb:ffff::2");
    expect([clientMeter(a), clientMeter(b)]).toEqual(["2001:db8:aa:bb::/64", "2001:db8:aa:bb::/64"]);
  });
});

describe("loopback requests", () => {
  it.each([
    ["127.0.0.1", { host: "localhost:3000" }],
    ["::1", { host: "localhost:3000" }],
    ["::ffff:127.0.0.1", { host: "127.0.0.1:3000" }],
    ["127.0.0.1", { host: "[::1]:3000" }],
    ["127.0.0.1", { "x-forwarded-for": "127.0.0.1", host: "localhost:3000" }],
  ])("accept a connection from %s with %j", (socket, headers) =>
    expect(isLoopbackRequest(request(socket, headers))).toBe(true));

  it.each([
    ["a remote client", "203.0.113.9", { host: "localhost:3000" }],
    ["a remote client claiming loopback", "203.0.113.9", { "x-forwarded-for": "127.0.0.1", host: "localhost:3000" }],
    ["a remote client behind a local proxy", "127.0.0.1", { "x-forwarded-for": "203.0.113.9", host: "localhost:3000" }],
    ["a page that rebound its own name to 127.0.0.1", "127.0.0.1", { host: "evil.example:3000" }],
    ["no address at all", undefined, { host: "localhost:3000" }],
    ["a private address", "192.168.1.5", { host: "localhost:3000" }],
  ])("refuse %s", (_name, socket, headers) => expect(isLoopbackRequest(request(socket, headers))).toBe(false));
});
