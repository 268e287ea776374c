/** The dev chain's JSON-RPC server: reads answered from EDR's own JSON keep the JSON-RPC envelope. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { historyAt } from "./history-clock";
import { type DevChain, startDevChain } from "./node";

let chain: DevChain;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "devchain-server-"));
  chain = await startDevChain({ dataDir, genesisTimestamp: historyAt().genesisTimestamp });
}, 60_000);

afterAll(async () => {
  await chain.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function post(body: unknown): Promise<unknown> {
  const res = await fetch(chain.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return res.json();
}

describe("dev chain JSON-RPC server", () => {
  it("answers a batch in order with each request's id, raw reads and provider calls alike", async () => {
    const answers = (await post([
      { jsonrpc: "2.0", id: "first", method: "eth_getBlockByNumber", params: ["0x0", true] },
      { jsonrpc: "2.0", id: 2, method: "eth_accounts", params: [] },
      { jsonrpc: "2.0", id: null, method: "eth_getLogs", params: [{ fromBlock: "0x0", toBlock: "latest" }] },
      { jsonrpc: "2.0", id: 4, method: "eth_chainId", params: [] },
    ])) as { id: unknown; result: unknown }[];
    expect(answers.map((a) => a.id)).toEqual(["first", 2, null, 4]);
    expect(answers[0].result).toMatchObject({ number: "0x0", transactions: [] });
    expect(Array.isArray(answers[1].result)).toBe(true);
    expect(answers[2].result).toEqual([]);
    expect(answers[3].result).toMatch(/^0x[0-9a-f]+$/);
    for (const a of answers) expect(a).toMatchObject({ jsonrpc: "2.0" });
  });

  it("answers a read the node refuses with a JSON-RPC error under the request's id", async () => {
    const answer = (await post({
      jsonrpc: "2.0",
      id: 9,
      method: "eth_getLogs",
      params: [{ fromBlock: "not a block" }],
    })) as {
      id: number;
      error: { code: number; message: string };
    };
    expect(answer.id).toBe(9);
    expect(answer).not.toHaveProperty("result");
    expect(answer.error.code).toEqual(expect.any(Number));
    expect(answer.error.message).toEqual(expect.any(String));
  });

  it("answers an unknown block as null, not as an error", async () => {
    expect(await post({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["0xffffff", false] })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: null,
    });
  });
});
