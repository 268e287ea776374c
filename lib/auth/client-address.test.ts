import { describe, expect, it } from "vitest";
import { clientAddress, isLoopbackRequest } from "./client-address";

const request = (headers: Record<string, string>) => new Headers(headers);

describe("client address", () => {
  it("is the nearest hop's view: the last X-Forwarded-For entry", () => {
    expect(clientAddress(request({ "x-forwarded-for": "203.0.113.9" }))).toBe("203.0.113.9");
    expect(clientAddress(request({ "x-forwarded-for": "10.0.0.1, 198.51.100.4" }))).toBe("198.51.100.4");
    expect(clientAddress(request({}))).toBe("unknown");
  });
});

describe("loopback requests", () => {
  it.each([
    [{ "x-forwarded-for": "127.0.0.1", host: "localhost:3000" }],
    [{ "x-forwarded-for": "::1", host: "localhost:3000" }],
    [{ "x-forwarded-for": "::ffff:127.0.0.1", host: "127.0.0.1:3000" }],
    [{ "x-forwarded-for": "127.0.0.1", host: "[::1]:3000" }],
  ])("accept %j", (headers) => expect(isLoopbackRequest(request(headers))).toBe(true));

  it.each([
    ["a remote client", { "x-forwarded-for": "203.0.113.9", host: "localhost:3000" }],
    ["a remote client behind a local proxy", { "x-forwarded-for": "203.0.113.9, 127.0.0.1", host: "localhost:3000" }],
    ["a page that rebound its own name to 127.0.0.1", { "x-forwarded-for": "127.0.0.1", host: "evil.example:3000" }],
    ["no address at all", { host: "localhost:3000" }],
    ["a private address", { "x-forwarded-for": "192.168.1.5", host: "localhost:3000" }],
  ])("refuse %s", (_name, headers) => expect(isLoopbackRequest(request(headers))).toBe(false));
});
