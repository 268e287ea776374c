import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OwnServer, ownServer } from "./own-server";

/**
 * Who a visitor without an account is, for the dashboard's metering: the address of the
 * connection, unless it is a proxy the operator lists in TRUSTED_PROXIES. Two servers of this
 * file's own: one reached directly (no proxy trusted: these tests are clients on loopback), one
 * behind trusted proxies (loopback and 10.0.0.0/8: these tests play the nearest proxy).
 */
let direct: OwnServer;
let proxied: OwnServer;
beforeAll(async () => {
  [direct, proxied] = await Promise.all([
    ownServer("oci_client_direct", () => ({})),
    ownServer("oci_client_proxied", () => ({ TRUSTED_PROXIES: "loopback, 10.0.0.0/8" })),
  ]);
});
afterAll(async () => {
  await Promise.all([direct?.close(), proxied?.close()]);
});

/**
 * An anonymous search (metered per client address: not a shared view, and open without an
 * account); whether it was refused for the rate limit.
 */
async function search(server: OwnServer, forwardedFor: string | null, i: number) {
  const res = await fetch(`${server.baseUrl}/search?q=q${i}`, {
    headers: forwardedFor === null ? {} : { "x-forwarded-for": forwardedFor },
  });
  return (await res.text()).includes("Rate limit exceeded");
}
const meters = async (server: OwnServer) =>
  (
    await server.sql<{ key_id: string; requests: number; rejected: number }[]>`
    select key_id, requests, rejected from usage_daily where key_id like 'client:%' order by key_id`
  ).map((r) => ({ ...r }));

describe("a client talking to the server directly", () => {
  it("cannot choose its meter: whatever X-Forwarded-For it sends, its connection's address counts, once", async () => {
    const forged = [
      null,
      "203.0.113.1",
      "203.0.113.2, 10.0.0.1",
      "not an address",
      "2001:db8::1",
      "127.0.0.1",
      "x".repeat(6000),
      "198.51.100.9",
    ];
    const refused = [];
    for (let i = 0; i < 10; i++) refused.push(await search(direct, forged[i % forged.length], i));
    expect(refused).toEqual(Array(10).fill(false));
    expect(await search(direct, "203.0.113.99", 10)).toBe(true);
    expect(await meters(direct)).toEqual([{ key_id: "client:127.0.0.1", requests: 10, rejected: 1 }]);
  });
});

describe("behind trusted proxies", () => {
  it("the visitor is the first untrusted address from the right of X-Forwarded-For, IPv6 by its /64", async () => {
    // What a visitor wrote itself, left of the address the first trusted proxy saw, is not read.
    await search(proxied, "198.51.100.7, 10.0.0.2", 1);
    await search(proxied, "203.0.113.50, 198.51.100.7, 10.0.0.2", 2);
    await search(proxied, "198.51.100.7", 3);
    await search(proxied, "2001:db8:aa:bb::1, 10.9.9.9", 1);
    await search(proxied, "[2001:db8:aa:bb:ffff::2]:5000", 2);
    // No address where the nearest proxy's report should be: counted as that proxy.
    await search(proxied, "unknown, 10.0.0.2", 1);
    await search(proxied, "x".repeat(6000), 1);
    expect((await meters(proxied)).map((m) => [m.key_id, m.requests])).toEqual([
      ["client:10.0.0.2", 1],
      ["client:127.0.0.1", 1],
      ["client:198.51.100.7", 3],
      ["client:2001:db8:aa:bb::/64", 2],
    ]);
  });
});
