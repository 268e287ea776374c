/**
 * Child-process entry of the dev chain: an EDR (Hardhat 2) provider behind a small JSON-RPC HTTP
 * server on 127.0.0.1. Unlike `hardhat node`, requests are executed strictly one after another in
 * arrival order, batch items included, so a batch of transactions followed by `evm_mine` lands in the
 * block in exactly the order it was sent (the simulator mirrors the chain's state and relies on it).
 */
import { createServer, type IncomingMessage } from "node:http";

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

const port = Number(process.argv[2]);
const { default: hre } = await import("hardhat");
const provider = hre.network.provider;

async function execute(req: RpcRequest): Promise<object> {
  try {
    const result = await provider.request({ method: req.method, params: req.params ?? [] });
    return { jsonrpc: "2.0", id: req.id ?? null, result: result ?? null };
  } catch (e) {
    const err = e as RpcError;
    const error = { code: err.code ?? -32603, message: err.message ?? String(e), data: err.data };
    return { jsonrpc: "2.0", id: req.id ?? null, error };
  }
}

let queue: Promise<unknown> = Promise.resolve();
/** Runs one HTTP body (a request or a batch) after every body received before it. */
function serialized(body: RpcRequest | RpcRequest[]): Promise<object> {
  const run = async () => {
    if (!Array.isArray(body)) return execute(body);
    const responses: object[] = [];
    for (const req of body) responses.push(await execute(req));
    return responses;
  };
  const result = queue.then(run);
  queue = result.catch(() => undefined);
  return result;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
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
    res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }));
    return;
  }
  const response = await serialized(body);
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(response));
});
server.keepAliveTimeout = 60_000;
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
