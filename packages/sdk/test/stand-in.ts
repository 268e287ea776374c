import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

/**
 * A loopback HTTP server in front of the real API server: it forwards every request, except those
 * `handle` answers itself (it returns true then). The tests use it to stand in for the event
 * stream, or to take it away, and to cut connections.
 */
export class StandIn {
  private server: Server | undefined;
  baseUrl = "";

  constructor(
    private readonly upstream: string,
    private readonly handle: Handler,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", this.upstream);
      this.handle(req, res, url)
        .then((handled) => (handled ? undefined : this.forward(req, res, url)))
        .catch((err) => res.destroy(err));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  private async forward(req: IncomingMessage, res: ServerResponse, url: URL) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const sent = Object.entries(req.headers).filter(([k, v]) => k !== "host" && typeof v === "string");
    const headers = Object.fromEntries(sent) as Record<string, string>;
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const answer = await fetch(url, { method: req.method, headers, body });
    // fetch has decoded the body: its length and encoding are no longer the upstream's.
    const dropped = new Set(["content-encoding", "content-length", "transfer-encoding", "connection"]);
    res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([k]) => !dropped.has(k))));
    res.end(Buffer.from(await answer.arrayBuffer()));
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
