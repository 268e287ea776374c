/** A minimal JSON-RPC client: single calls and ordered batches, over one kept-alive connection. */
export interface RpcCall {
  method: string;
  params: unknown[];
}

interface RpcResponse {
  id: number;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export class RpcError extends Error {
  constructor(
    readonly call: RpcCall,
    readonly code: number,
    message: string,
  ) {
    super(`${call.method}: ${message}`);
  }
}

export class RpcClient {
  private nextId = 1;
  /** `headers` go with every request (the simulator marks its own: node-protocol.ts). */
  constructor(
    readonly url: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  async call<T>(method: string, params: unknown[] = []): Promise<T> {
    const [result] = await this.batch([{ method, params }]);
    return result as T;
  }

  /** Sends the calls as one batch and returns their results in order; fails on the first error. */
  async batch(calls: RpcCall[]): Promise<unknown[]> {
    if (calls.length === 0) return [];
    const first = this.nextId;
    this.nextId += calls.length;
    const body = calls.map((c, i) => ({ jsonrpc: "2.0", id: first + i, method: c.method, params: c.params }));
    const res = await fetch(this.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...this.headers },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${this.url}: HTTP ${res.status}`);
    const responses = (await res.json()) as RpcResponse[];
    const byId = new Map(responses.map((r) => [r.id, r]));
    return calls.map((call, i) => {
      const r = byId.get(first + i);
      if (!r) throw new RpcError(call, -32603, "no response");
      if (r.error) throw new RpcError(call, r.error.code, r.error.message);
      return r.result;
    });
  }
}
