import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type FaultOptions = {
  /** Share of requests failed (HTTP 5xx, JSON-RPC internal error, reset connection), 0..1. */
  errorRate: number;
  /** Share of requests that never get an answer. */
  hangRate: number;
  /** eth_getLogs spanning more blocks than this fails with a provider's range-limit message. */
  maxLogRange: number;
  /** Added to every answer, to slow a sync down (crash tests need time to crash it). */
  latencyMs?: number;
  seed?: number;
};

export type FaultStats = { requests: number; errors: number; hangs: number; rangeErrors: number };

const RANGE_MESSAGES = [
  (from: number, limit: number) =>
    "query returned more than 10000 results. " +
    `Try with this block range [0x${from.toString(16)}, 0x${(from + limit - 1).toString(16)}].`,
  (_: number, limit: number) => `block range is too wide (max ${limit})`,
  () => "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range",
];

/**
 * A JSON-RPC proxy on loopback in front of a node that injects the faults of real providers:
 * errors, hung requests and eth_getLogs range limits (with and without a suggested range).
 */
export async function startFaultyProxy(target: string, opts: FaultOptions) {
  let seed = opts.seed ?? 1;
  const random = () => ((seed = (seed * 48271) % 2147483647), seed / 2147483647);
  const stats: FaultStats = { requests: 0, errors: 0, hangs: 0, rangeErrors: 0 };
  const hung = new Set<import("node:http").ServerResponse>();
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      stats.requests++;
      const parsed = JSON.parse(body) as
        | { id: number; method: string; params: unknown[] }
        | { id: number; method: string; params: unknown[] }[];
      const calls = Array.isArray(parsed) ? parsed : [parsed];
      const r = random();
      if (r < opts.hangRate) {
        stats.hangs++;
        hung.add(res);
        return;
      }
      if (r < opts.hangRate + opts.errorRate) {
        stats.errors++;
        const kind = Math.floor(random() * 3);
        if (kind === 0) return res.writeHead(503).end("upstream unavailable");
        if (kind === 1) return req.socket.destroy();
        const err = (id: number) => ({ jsonrpc: "2.0", id, error: { code: -32603, message: "internal error" } });
        res.setHeader("content-type", "application/json");
        return res.end(JSON.stringify(Array.isArray(parsed) ? calls.map((c) => err(c.id)) : err(calls[0].id)));
      }
      const tooWide = calls.find((c) => {
        if (c.method !== "eth_getLogs") return false;
        const f = c.params[0] as { fromBlock: string; toBlock: string };
        return Number(f.toBlock) - Number(f.fromBlock) + 1 > opts.maxLogRange;
      });
      if (tooWide) {
        stats.rangeErrors++;
        const from = Number((tooWide.params[0] as { fromBlock: string }).fromBlock);
        const message = RANGE_MESSAGES[stats.rangeErrors % RANGE_MESSAGES.length](from, opts.maxLogRange);
        res.setHeader("content-type", "application/json");
        return res.end(JSON.stringify({ jsonrpc: "2.0", id: tooWide.id, error: { code: -32005, message } }));
      }
      const forward = () => {
        const upstream = request(target, { method: "POST", headers: { "content-type": "application/json" } }, (up) => {
          res.writeHead(up.statusCode ?? 502, { "content-type": "application/json" });
          up.pipe(res);
        });
        upstream.on("error", () => res.writeHead(502).end());
        upstream.end(body);
      };
      if (opts.latencyMs) setTimeout(forward, opts.latencyMs);
      else forward();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats,
    close: async () => {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
