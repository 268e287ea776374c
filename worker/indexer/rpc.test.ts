import { describe, expect, it } from "vitest";
import { JsonRpcError, Rpc, type RpcTransport } from "./rpc";

type Request = { id: number; method: string; params: unknown[] };

/** Hardhat's answer to an eth_call that reverts: -32603, like an internal error, but with the revert data. */
const reverted = { code: -32603, message: "Transaction reverted without a reason string", data: "0x" };

/**
 * A node whose first answer to the call at index `flaky` is an internal error; the call at index `reverts` always
 * reverts.
 */
function node(flaky: number, reverts: number) {
  let batches = 0;
  const request = async ({ body }: { body: Request[] }) => {
    batches++;
    return body.map((r, i) => {
      if (i === reverts) return { jsonrpc: "2.0", id: r.id, error: reverted };
      if (i === flaky && batches === 1)
        return { jsonrpc: "2.0", id: r.id, error: { code: -32603, message: "internal error" } };
      return { jsonrpc: "2.0", id: r.id, result: `0x${i.toString(16).padStart(64, "0")}` };
    });
  };
  return {
    rpc: new Rpc({ transport: { request } as unknown as RpcTransport, maxAttempts: 3 }),
    batches: () => batches,
  };
}

const calls = (n: number) =>
  Array.from({ length: n }, () => ({
    method: "eth_call",
    params: [{ to: `0x${"11".repeat(20)}`, data: "0x06fdde03" }, "0x1"],
  }));

describe("batchSettled", () => {
  it("answers a revert with its error and retries the batch on an internal error, which is no answer", async () => {
    const { rpc, batches } = node(0, 1);
    const [first, second, third] = await rpc.batchSettled<string>(calls(3));
    expect(first).toBe(`0x${"0".repeat(64)}`);
    expect(second).toBeInstanceOf(JsonRpcError);
    expect((second as JsonRpcError).message).toBe(reverted.message);
    expect(third).toBe(`0x${"2".padStart(64, "0")}`);
    expect(batches()).toBe(2);
  });

  it("takes geth's reverts and a node without the block's state as answers too", async () => {
    const answers = [
      { code: 3, message: "execution reverted", data: "0x08c379a0" },
      { code: -32000, message: "execution reverted" },
      { code: -32000, message: "missing trie node 1a2b (path )" },
    ];
    const request = async ({ body }: { body: Request[] }) =>
      body.map((r, i) => ({ jsonrpc: "2.0", id: r.id, error: answers[i] }));
    const rpc = new Rpc({ transport: { request } as unknown as RpcTransport, maxAttempts: 1 });
    const got = await rpc.batchSettled<string>(calls(3));
    expect(got.map((e) => (e as JsonRpcError).code)).toEqual([3, -32000, -32000]);
  });
});
