import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "./errors";
import { parseBody, readBodyCapped } from "./params";

const KIB = 1024;

/** A request whose body is `chunks` chunks of 16 KiB, counting how many were pulled. */
function streamed(chunks: number, headers: Record<string, string> = {}) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(16 * KIB).fill(32));
    },
  });
  const req = new Request("http://app.test/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  return { req, pulled: () => pulled };
}

const tooLarge = { status: 413, code: "PAYLOAD_TOO_LARGE", param: "body" };

describe("request bodies", () => {
  it("are read up to 64 KiB", async () => {
    const { req } = streamed(4);
    expect((await readBodyCapped(req)).length).toBe(64 * KIB);
  });

  it("stop being read as soon as they pass 64 KiB: 413", async () => {
    const { req, pulled } = streamed(1_000);
    const err = await readBodyCapped(req).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject(tooLarge);
    expect(pulled()).toBeLessThanOrEqual(6);
  });

  it("are refused unread when Content-Length says they are too large", async () => {
    const { req, pulled } = streamed(1_000, { "content-length": String(16 * KIB * 1_000) });
    await expect(readBodyCapped(req)).rejects.toMatchObject(tooLarge);
    // The stream fills its queue of one chunk by itself; nothing more is read.
    expect(pulled()).toBeLessThanOrEqual(1);
  });

  it("parse as JSON against the schema", async () => {
    const req = new Request("http://app.test/x", { method: "POST", body: JSON.stringify({ name: "bot" }) });
    expect(await parseBody(req, z.object({ name: z.string() }))).toEqual({ name: "bot" });
  });
});
