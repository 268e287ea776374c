/**
 * `npm run bench:stream`: GET /v1/events/stream under load, end to end. A dev chain with a small
 * market (launchpad tokens on Uniswap V2), the worker in a child process (hearing new heads over
 * the node's WebSocket), and the production server; then --streams streams (1,000) with mixed
 * filters (a quarter each: every event, swaps, one token, one wallet), spread over API Tier keys,
 * and one client polling GET /v1/events?after= every second. Blocks are mined every --block-ms
 * (2 s on average, the chain's pace, each a quarter early or late at random) with --swaps swaps
 * of random traders on random tokens each. For every stream and every block with events it
 * selects, the latency is the time from the block being mined (evm_mine returned) to the first
 * of its events arriving; the same for the poller. Also
 * the server's memory per open stream (its RSS with the streams open less with one open) and its
 * CPU time per block, without streams and with them.
 * Options: --streams N, --blocks N, --block-ms N, --swaps N, --json (one JSON object on the last line).
 */
import { readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { encodeFunctionData } from "viem";
import { connect, createDb } from "@/db/client";
import { loadArtifacts } from "@/devchain/compile";
import { devchainWsUrl } from "@/devchain/node";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { buildIfStale } from "@/scripts/embedded/web";
import { startAppServer } from "@/tests/setup/server";
import { SseClient, type SseMessage } from "@/tests/setup/sse-client";
import { spawnWorker, stopWorker } from "@/worker/test/child";
import { createTestDatabase } from "@/worker/test/db";
import { DevchainMarket } from "@/worker/test/devchain-market";
import { printTable } from "./lib/table";

const { values: args } = parseArgs({
  options: {
    streams: { type: "string", default: "1000" },
    blocks: { type: "string", default: "60" },
    "block-ms": { type: "string", default: "2000" },
    swaps: { type: "string", default: "8" },
    json: { type: "boolean", default: false },
  },
});
const STREAMS = Number(args.streams);
const BLOCKS = Number(args.blocks);
const BLOCK_MS = Number(args["block-ms"]);
const SWAPS = Number(args.swaps);
/** Blocks mined with no stream open, for the server's CPU per block without them. */
const QUIET_BLOCKS = 10;
const STREAMS_PER_KEY = 100;
const TARGET_P95_MS = 500;
/** Events of a block not at a client by then count as missing. */
const SETTLE_MS = 30_000;
const say = (s: string) => console.error(`[bench:stream] ${s}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] : 0;

/** Resident memory (kB) and CPU time (ms) of a process and its descendants (Linux /proc). */
function usage(pid: number): { rssKb: number; cpuMs: number } {
  const children = (p: number): number[] => {
    try {
      return readdirSync(`/proc/${p}/task`).flatMap((t) =>
        readFileSync(`/proc/${p}/task/${t}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number),
      );
    } catch {
      return [];
    }
  };
  let rssKb = 0;
  let cpuMs = 0;
  for (const queue = [pid]; queue.length > 0; ) {
    const p = queue.pop()!;
    try {
      rssKb += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, "utf8"))![1]);
      // utime and stime, in clock ticks (100 a second), after the command's closing parenthesis.
      const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
      cpuMs += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      continue;
    }
    queue.push(...children(p));
  }
  return { rssKb, cpuMs };
}

type Filter = { query: string; matches: (e: EventRow) => boolean };
type EventRow = { block: number; type: string; token: string; wallet: string; to: string | null };
/** A stream (or the poller): when the first event of each block arrived. */
type Receiver = { filter: Filter; arrivals: Map<number, number> };

const BLOCK_NUMBER = /"block_number":(\d+)/;

async function main() {
  say("dev chain and market...");
  const market = await DevchainMarket.start(7);
  const db = await createTestDatabase("stream_bench");
  const sql = connect(db.url, { max: 2 });
  const clients: SseClient[] = [];
  let worker: ReturnType<typeof spawnWorker> | null = null;
  let server: Awaited<ReturnType<typeof startAppServer>> | null = null;
  try {
    await market.simulate(30, 4);
    const tokens = market.tokens.map((t) => t.token);
    const traders = market.accounts.slice(1, 8);
    worker = spawnWorker(db.url, market.chain.rpcUrl, market.profile, {
      RPC_WS_URL: devchainWsUrl(market.chain.rpcUrl),
      POLL_INTERVAL_MS: "250",
      FULL_REFRESH_MS: "30000",
    });
    await worker.active;
    await worker.caughtUp;
    await buildIfStale(say);
    server = await startAppServer({ DATABASE_URL: db.url, LOG_LEVEL: "warn" });
    const base = server.baseUrl;
    const d = createDb(sql);
    const keys: string[] = [];
    for (let i = 0; i < Math.ceil(STREAMS / STREAMS_PER_KEY) + 1; i++)
      keys.push((await createKey(d, await ensureAccount(d, null, "api_tier"), `bench ${i}`)).key);

    // Blocks: swaps of random traders on random tokens, one block every BLOCK_MS.
    const { UniswapV2Router02 } = await loadArtifacts();
    const { router } = market.deployment.uniswapV2;
    const { weth } = market.deployment;
    let block = await market.rpc.blockNumber();
    let time = Number((await market.rpc.getBlocks([block], false))[0]!.timestamp);
    const minedAt = new Map<number, number>();
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
    const mineBlocks = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const started = performance.now();
        for (let s = 0; s < SWAPS; s++) {
          const trader = traders[random(traders.length)];
          const data = encodeFunctionData({
            abi: UniswapV2Router02.abi,
            functionName: "swapExactETHForTokens",
            args: [0n, [weth, tokens[random(tokens.length)]], trader, 2n ** 40n],
          });
          await market.rpc.call("eth_sendTransaction", [
            {
              from: trader,
              to: router,
              data,
              value: `0x${(BigInt(1 + random(20)) * 10n ** 15n).toString(16)}`,
              gas: "0x2dc6c0",
              gasPrice: "0x0",
            },
          ]);
        }
        time += 2;
        await market.rpc.call("evm_mine", [time]);
        minedAt.set(++block, performance.now());
        // Blocks a quarter early or late at random, as a chain's do:
        // the poller meets them at every phase of its second.
        await sleep(Math.max(0, BLOCK_MS * (0.75 + random(500) / 1000) - (performance.now() - started)));
      }
    };

    say(`${QUIET_BLOCKS} blocks with no stream open...`);
    const quietFrom = usage(server.pid);
    await mineBlocks(QUIET_BLOCKS);
    const quietCpuPerBlock = (usage(server.pid).cpuMs - quietFrom.cpuMs) / QUIET_BLOCKS;

    // The streams, a quarter of each filter.
    const filters: Filter[] = Array.from({ length: STREAMS }, (_, i) => {
      if (i % 4 === 1) return { query: "?type=swap", matches: (e) => e.type === "swap" };
      if (i % 4 === 2) {
        const token = tokens[i % tokens.length];
        return { query: `?token_address=${token}`, matches: (e) => e.token === token };
      }
      if (i % 4 === 3) {
        const wallet = traders[i % traders.length];
        return { query: `?wallet_address=${wallet}`, matches: (e) => e.wallet === wallet || e.to === wallet };
      }
      return { query: "", matches: () => true };
    });
    const receivers: Receiver[] = [];
    const openStream = async (i: number) => {
      const receiver: Receiver = { filter: filters[i], arrivals: new Map() };
      let headed: () => void;
      const head = new Promise<void>((resolve) => (headed = resolve));
      const onMessage = (m: SseMessage) => {
        if (m.event === "end") say(`stream ${i} ended: ${m.data}`);
        if (m.event === "head") return headed();
        if (m.event !== "message") return;
        const number = Number(BLOCK_NUMBER.exec(m.data)![1]);
        if (!receiver.arrivals.has(number)) receiver.arrivals.set(number, m.at);
      };
      const c = await SseClient.open(`${base}/v1/events/stream${filters[i].query}`, {
        key: keys[Math.floor(i / STREAMS_PER_KEY)],
        keep: false,
        onMessage,
      });
      if (c.status !== 200) throw new Error(`stream ${i}: ${c.status}`);
      const closed = c.closed.then(() => {
        throw new Error(`stream ${i} closed before its first head message; the server said:\n${server?.output()}`);
      });
      // Only its race with the head matters; a stream closing at the end of the run is no error.
      closed.catch(() => {});
      clients.push(c);
      receivers.push(receiver);
      await Promise.race([head, closed]);
    };
    say(`opening ${STREAMS} streams...`);
    await openStream(0);
    await sleep(1_000);
    const one = usage(server.pid);
    for (let i = 1; i < STREAMS; i += 50)
      await Promise.all(Array.from({ length: Math.min(50, STREAMS - i) }, (_, k) => openStream(i + k)));
    await sleep(2_000);
    const all = usage(server.pid);
    const kbPerStream = (all.rssKb - one.rssKb) / (STREAMS - 1);
    say(
      `server RSS ${Math.round(one.rssKb / 1024)} MB with one stream, ` +
        `${Math.round(all.rssKb / 1024)} MB with ${STREAMS}`,
    );

    // The poller: GET /v1/events?after= every second, oldest first, every page.
    const poller: Receiver = { filter: { query: "", matches: () => true }, arrivals: new Map() };
    let polling = true;
    const [{ last }] = await sql<{ last: string }[]>`select coalesce(max(id), 0)::text as last from events`;
    const poll = (async () => {
      let after = last;
      while (polling) {
        const started = performance.now();
        for (;;) {
          const res = await fetch(`${base}/v1/events?order=asc&limit=200&after=${after}`, {
            headers: { Authorization: `Bearer ${keys[keys.length - 1]}` },
          });
          const at = performance.now();
          const page = ((await res.json()) as { data: { id: string; block_number: number }[] }).data;
          for (const e of page) if (!poller.arrivals.has(e.block_number)) poller.arrivals.set(e.block_number, at);
          if (page.length > 0) after = page[page.length - 1].id;
          if (page.length < 200) break;
        }
        await sleep(Math.max(0, 1_000 - (performance.now() - started)));
      }
    })();

    say(`${BLOCKS} blocks, ${SWAPS} swaps each, one every ${BLOCK_MS} ms...`);
    const liveFrom = usage(server.pid);
    const firstLive = block + 1;
    await mineBlocks(BLOCKS);
    const lastLive = block;
    // Every block's events at every client that selects them, or SETTLE_MS.
    const rows = await sql<{ block: string; type: string; token: string; wallet: string; to: string | null }[]>`
      select block_number::text as block, type, token_address as token, wallet_address as wallet, to_address as to
        from events where block_number between ${firstLive} and ${lastLive}`;
    const events: EventRow[] = rows.map((r) => ({ ...r, block: Number(r.block) }));
    const expected = (r: Receiver) => new Set(events.filter(r.filter.matches).map((e) => e.block));
    const settleBy = performance.now() + SETTLE_MS;
    const complete = (r: Receiver) => [...expected(r)].every((b) => r.arrivals.has(b));
    while (performance.now() < settleBy && ![...receivers, poller].every(complete)) await sleep(100);
    const liveCpuPerBlock = (usage(server.pid).cpuMs - liveFrom.cpuMs) / BLOCKS;
    polling = false;
    await poll;

    const latencies = (rs: Receiver[]) => {
      const samples: number[] = [];
      let missing = 0;
      for (const r of rs) {
        for (const b of expected(r)) {
          const at = r.arrivals.get(b);
          if (at === undefined) missing++;
          else samples.push(at - minedAt.get(b)!);
        }
      }
      return { samples, missing };
    };
    const stream = latencies(receivers);
    // Per block: its first stream's latency (indexing and the hub's read), and how long its fan-out took to the last.
    const perBlock = [...minedAt.keys()].flatMap((b) => {
      const ats = receivers.flatMap((r) => (r.arrivals.has(b) ? [r.arrivals.get(b)!] : []));
      return ats.length
        ? [{ first: Math.min(...ats) - minedAt.get(b)!, spread: Math.max(...ats) - Math.min(...ats) }]
        : [];
    });
    const first = perBlock.map((x) => x.first);
    const spread = perBlock.map((x) => x.spread);
    const polled = latencies([poller]);
    const result = {
      streams: STREAMS,
      blocks: BLOCKS,
      events: events.length,
      stream_p50_ms: Math.round(percentile(stream.samples, 0.5)),
      stream_p95_ms: Math.round(percentile(stream.samples, 0.95)),
      stream_max_ms: Math.round(percentile(stream.samples, 1)),
      stream_samples: stream.samples.length,
      stream_missing: stream.missing,
      poll_p50_ms: Math.round(percentile(polled.samples, 0.5)),
      poll_p95_ms: Math.round(percentile(polled.samples, 0.95)),
      poll_max_ms: Math.round(percentile(polled.samples, 1)),
      poll_samples: polled.samples.length,
      poll_missing: polled.missing,
      first_stream_p50_ms: Math.round(percentile(first, 0.5)),
      first_stream_p95_ms: Math.round(percentile(first, 0.95)),
      fan_out_p50_ms: Math.round(percentile(spread, 0.5)),
      fan_out_p95_ms: Math.round(percentile(spread, 0.95)),
      server_kb_per_stream: Math.round(kbPerStream),
      server_rss_mb: Math.round(all.rssKb / 1024),
      server_cpu_ms_per_block_quiet: Math.round(quietCpuPerBlock),
      server_cpu_ms_per_block: Math.round(liveCpuPerBlock),
    };
    console.log(
      `\nEvent stream: ${STREAMS} streams (mixed filters), ${BLOCKS} blocks of ${SWAPS} swaps, ` +
        `one every ${BLOCK_MS} ms\n`,
    );
    printTable([
      {
        client: `SSE /v1/events/stream (${STREAMS} streams)`,
        "(stream, block) pairs": result.stream_samples,
        "p50 ms": result.stream_p50_ms,
        "p95 ms": result.stream_p95_ms,
        "max ms": result.stream_max_ms,
        missing: result.stream_missing,
        [`p95 <= ${TARGET_P95_MS} ms`]:
          result.stream_p95_ms <= TARGET_P95_MS && result.stream_missing === 0 ? "yes" : "NO",
      },
      {
        client: "  of which: the block's first stream (indexing, one read)",
        "(stream, block) pairs": first.length,
        "p50 ms": result.first_stream_p50_ms,
        "p95 ms": result.first_stream_p95_ms,
        "max ms": Math.round(percentile(first, 1)),
        missing: "",
        [`p95 <= ${TARGET_P95_MS} ms`]: "",
      },
      {
        client: "  of which: first to last stream of a block (fan-out)",
        "(stream, block) pairs": spread.length,
        "p50 ms": result.fan_out_p50_ms,
        "p95 ms": result.fan_out_p95_ms,
        "max ms": Math.round(percentile(spread, 1)),
        missing: "",
        [`p95 <= ${TARGET_P95_MS} ms`]: "",
      },
      {
        client: "polling /v1/events?after= every 1 s",
        "(stream, block) pairs": result.poll_samples,
        "p50 ms": result.poll_p50_ms,
        "p95 ms": result.poll_p95_ms,
        "max ms": result.poll_max_ms,
        missing: result.poll_missing,
        [`p95 <= ${TARGET_P95_MS} ms`]: "",
      },
    ]);
    console.log("");
    printTable([
      { "server (next start)": "memory per open stream (kB)", value: result.server_kb_per_stream },
      { "server (next start)": `RSS with ${STREAMS} streams (MB)`, value: result.server_rss_mb },
      { "server (next start)": "CPU per block, no stream open (ms)", value: result.server_cpu_ms_per_block_quiet },
      {
        "server (next start)": `CPU per block, ${STREAMS} streams and the poller (ms)`,
        value: result.server_cpu_ms_per_block,
      },
    ]);
    if (args.json) console.log(JSON.stringify(result));
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await server?.stop();
    if (worker) await stopWorker(worker);
    await sql.end();
    await market.stop();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
