/**
 * Child-process entry of the dev chain: an EDR (Hardhat 2) provider behind a small JSON-RPC HTTP
 * server on 127.0.0.1. Unlike `hardhat node`, requests are executed strictly one after another in
 * arrival order, batch items included, so a batch of transactions followed by `evm_mine` lands in the
 * block in exactly the order it was sent (the simulator mirrors the chain's state and relies on it).
 *
 * Requests marked with SIMULATOR_HEADER are the simulator's; all others are outside clients'.
 * While the simulator is attached, outside clients may read and send transactions but not mine or
 * set state, and their transactions are mined where the simulator admits them (outside-lane.ts).
 *
 * WebSocket clients on the same port are outside clients too, and may subscribe to "newHeads":
 * each mining request announces the new head (hardhat_mine's bulk blocks announce their last
 * one; a subscriber only needs to know that the head moved).
 *
 * argv: port (0: one the OS picks). Env: DEVCHAIN_DATA_DIR, where the journal of outside
 * transactions lives (outside-journal.ts).
 */
import { createServer, type IncomingMessage } from "node:http";
import type { Hex } from "viem";
import { type WebSocket, WebSocketServer } from "ws";
import { type AttachResult, NODE_METHODS, SIMULATOR_HEADER } from "./node-protocol";
import { Journal, journalFile } from "./outside-journal";
import { OutsideLane } from "./outside-lane";

interface RpcRequest {
  id?: number | string | null;
  method: string;
  params?: unknown[];
}
interface RpcError {
  code?: number;
  message?: string;
  data?: unknown;
}

const MINING = new Set(["evm_mine", "hardhat_mine"]);
const SENDS = new Set(["eth_sendTransaction", "eth_sendRawTransaction"]);

const port = Number(process.argv[2]);
const dataDir = process.env.DEVCHAIN_DATA_DIR;
if (!dataDir) throw new Error("DEVCHAIN_DATA_DIR must be set");
const { default: hre } = await import("hardhat");
const provider = hre.network.provider;
const request = (method: string, params: unknown[]) => provider.request({ method, params });

const [chainId, genesis] = (await Promise.all([
  request("eth_chainId", []),
  request("eth_getBlockByNumber", ["0x0", false]),
])) as [Hex, { hash: Hex }];
/**
 * Reads answered with EDR's own JSON text, spliced into the response unparsed. Hardhat's provider
 * parses each answer into objects for this server to serialise again: for the logs and blocks an
 * indexer backfills, that took this process about 40% more CPU than the reads themselves. None of
 * these methods changes state, and the provider's wrappers (senders, gas, stack traces) do nothing
 * for them.
 */
const RAW_READS = new Set([
  "eth_blockNumber",
  "eth_chainId",
  "eth_feeHistory",
  "eth_getBalance",
  "eth_getBlockByHash",
  "eth_getBlockByNumber",
  "eth_getCode",
  "eth_getLogs",
  "eth_getTransactionByHash",
  "eth_getTransactionReceipt",
]);
type EdrProvider = { handleRequest(json: string): Promise<{ data: string | object }> };
/**
 * Hardhat 2's EdrProviderWrapper under its adapters, found after the first request above (the lazy
 * adapter builds what it wraps then); its EDR provider is read per call (hardhat_reset replaces it).
 */
const edrWrapper = (() => {
  let p = provider as unknown as { _wrapped?: unknown; _provider?: unknown; constructor: { name: string } } | undefined;
  while (p && p.constructor.name !== "EdrProviderWrapper") p = (p._wrapped ?? p._provider) as typeof p;
  if (!p) throw new Error("the dev chain expects Hardhat 2's EDR provider (hardhat 2.29)");
  return p as unknown as { _provider: EdrProvider };
})();

/** A read's JSON-RPC response text: EDR answers `{"result":…}` or `{"error":…}`, which gets the id. */
async function rawRead(req: RpcRequest): Promise<string> {
  const { data } = await edrWrapper._provider.handleRequest(
    JSON.stringify({ method: req.method, params: req.params ?? [] }),
  );
  const text = typeof data === "string" ? data : JSON.stringify(data);
  return `{"jsonrpc":"2.0","id":${JSON.stringify(req.id ?? null)},${text.slice(1)}`;
}

const opened = Journal.open(journalFile(dataDir), { chainId: Number(chainId), genesisHash: genesis.hash });
const lane = new OutsideLane(request, opened.journal);

/** While the simulator drives the chain, outside clients may not mine or change state other than by
 * transactions: nothing the journal could not replay. */
function reservedForSimulator(method: string): boolean {
  if (method.startsWith("devchain_")) return true;
  return lane.driven && (method.startsWith("evm_") || (method.startsWith("hardhat_") && method !== "hardhat_metadata"));
}

async function simulatorMethod(req: RpcRequest): Promise<unknown> {
  switch (req.method) {
    case NODE_METHODS.attach: {
      lane.driven = true;
      const result: AttachResult = { recordedBlocks: lane.journal.blocks(), notices: opened.notices.splice(0) };
      return result;
    }
    case NODE_METHODS.admit:
      return lane.admit();
    case NODE_METHODS.replay:
      return lane.replay(Number(req.params?.[0]));
    case NODE_METHODS.report:
      return lane.takeReport();
    case NODE_METHODS.release:
      lane.driven = false;
      return null;
  }
  const result = await request(req.method, req.params ?? []);
  if (MINING.has(req.method)) await lane.afterMine();
  return result;
}

async function outsideMethod(req: RpcRequest): Promise<unknown> {
  if (reservedForSimulator(req.method)) {
    throw {
      code: -32000,
      message:
        `${req.method} is reserved for the dev chain's simulator while it drives the chain; ` +
        "send transactions instead",
    };
  }
  const params = req.params ?? [];
  const result = await request(req.method, params);
  if (SENDS.has(req.method)) await lane.sent(req.method, params, result as Hex);
  if (MINING.has(req.method)) await lane.afterMine();
  return result;
}

/** One request's JSON-RPC response, as text. */
async function execute(req: RpcRequest, simulator: boolean): Promise<string> {
  try {
    if (RAW_READS.has(req.method)) return await rawRead(req);
    const result = await (simulator ? simulatorMethod(req) : outsideMethod(req));
    return JSON.stringify({ jsonrpc: "2.0", id: req.id ?? null, result: result ?? null });
  } catch (e) {
    const err = e as RpcError;
    const error = { code: err.code ?? -32603, message: err.message ?? String(e), data: err.data };
    return JSON.stringify({ jsonrpc: "2.0", id: req.id ?? null, error });
  }
}

/** One HTTP body (a request or a batch), in order. Outside transactions wait outside the pool
 * while the simulator's run. */
async function run(body: RpcRequest | RpcRequest[], simulator: boolean): Promise<string> {
  const requests = Array.isArray(body) ? body : [body];
  if (simulator) await lane.beforeSimulator();
  try {
    const responses: string[] = [];
    for (const req of requests) responses.push(await execute(req, simulator));
    if (requests.some((r) => MINING.has(r.method))) await announceHead();
    return Array.isArray(body) ? `[${responses.join(",")}]` : responses[0];
  } finally {
    if (simulator) await lane.afterSimulator();
  }
}

let queue: Promise<unknown> = Promise.resolve();
/** Runs one HTTP body after every body received before it. */
function serialized(body: RpcRequest | RpcRequest[], simulator: boolean): Promise<string> {
  const result = queue.then(() => run(body, simulator));
  queue = result.catch(() => undefined);
  return result;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const PARSE_ERROR = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });

/** Each WebSocket client's newHeads subscription ids. */
const subscribers = new Map<WebSocket, Set<string>>();
let subscriptions = 0;

async function announceHead() {
  if (subscribers.size === 0) return;
  const head = await request("eth_getBlockByNumber", ["latest", false]);
  for (const [socket, ids] of subscribers) {
    for (const subscription of ids)
      socket.send(
        JSON.stringify({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription, result: head } }),
      );
  }
}

function subscriptionMethod(req: RpcRequest, ids: Set<string>): object {
  const id = req.id ?? null;
  if (req.method === "eth_unsubscribe") return { jsonrpc: "2.0", id, result: ids.delete(String(req.params?.[0])) };
  if (req.params?.[0] !== "newHeads")
    return { jsonrpc: "2.0", id, error: { code: -32602, message: "the dev chain announces newHeads only" } };
  const subscription = `0x${(++subscriptions).toString(16)}`;
  ids.add(subscription);
  return { jsonrpc: "2.0", id, result: subscription };
}

const server = createServer(async (req, res) => {
  if (req.method !== "POST") {
    res.writeHead(405).end();
    return;
  }
  let body: RpcRequest | RpcRequest[];
  try {
    body = JSON.parse(await readBody(req));
  } catch {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(PARSE_ERROR);
    return;
  }
  const response = await serialized(body, req.headers[SIMULATOR_HEADER] !== undefined);
  res.writeHead(200, { "content-type": "application/json" });
  res.end(response);
});
server.keepAliveTimeout = 60_000;
new WebSocketServer({ server }).on("connection", (socket) => {
  const ids = new Set<string>();
  subscribers.set(socket, ids);
  socket.on("close", () => subscribers.delete(socket));
  socket.on("message", async (data) => {
    let body: RpcRequest | RpcRequest[];
    try {
      body = JSON.parse(data.toString());
    } catch {
      socket.send(PARSE_ERROR);
      return;
    }
    const subscription = !Array.isArray(body) && (body.method === "eth_subscribe" || body.method === "eth_unsubscribe");
    socket.send(
      subscription ? JSON.stringify(subscriptionMethod(body as RpcRequest, ids)) : await serialized(body, false),
    );
  });
});
// Port 0 asks the OS for a free one; the parent reads the real one from this line.
server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  console.log(`devchain listening on http://127.0.0.1:${typeof address === "object" && address ? address.port : port}`);
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}
// The parent (startDevChain) holds an IPC channel; when it goes away, so does the chain.
process.on("disconnect", () => process.exit(0));
