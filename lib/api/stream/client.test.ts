import { describe, expect, it } from "vitest";
import { frames, matches, StreamClient } from "./client";

const decoder = new TextDecoder();

/** Everything a client's body delivers from now until it closes. */
async function readAll(body: ReadableStream<Uint8Array>): Promise<string> {
  const reader = body.getReader();
  let text = "";
  for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value);
  return text;
}

const client = (bufferBytes: number, onEnd = () => {}) =>
  new StreamClient({ filter: {}, pos: 0, wireId: 0, bufferBytes, onEnd });

describe("StreamClient", () => {
  it("ends a client that lets more than its bound wait unread, with a last message that says why", async () => {
    let ended = 0;
    const c = client(200_000, () => ended++);
    const message = frames.event(1, `{"id":"1","pad":"${"x".repeat(1000)}"}`);
    let sent = 0;
    while (!c.ended) {
      c.send(message);
      sent++;
    }
    // Nothing was read: the bound, and not more, waited.
    expect(sent).toBe(Math.floor(200_000 / message.length) + 1);
    expect(ended).toBe(1);
    c.send(message);
    const text = await readAll(c.body);
    expect(text.endsWith(frames.end("slow_client"))).toBe(true);
    expect(text.split("event: end").length).toBe(2);
    expect(text.length).toBe(sent * message.length + frames.end("slow_client").length);
  });

  it("paces catch-up: no room while 64 KiB wait unread, room again once the client reads", async () => {
    const c = client(1_000_000);
    c.send("x".repeat(70_000));
    expect(c.hasRoom).toBe(false);
    let roomy = false;
    const room = c.room().then(() => (roomy = true));
    await Promise.resolve();
    expect(roomy).toBe(false);
    const reader = c.body.getReader();
    await reader.read();
    await room;
    expect(c.hasRoom).toBe(true);
  });

  it("calls its end once when the client goes away, and sends nothing after", async () => {
    let ended = 0;
    const c = client(1_000_000, () => ended++);
    await c.body.cancel();
    expect(c.ended).toBe(true);
    c.send("data: late\n\n");
    c.end("server_shutdown");
    expect(ended).toBe(1);
  });
});

describe("matches", () => {
  const e = { type: "transfer" as const, token: "0xt", wallet: "0xa", to: "0xb" };
  it("applies GET /v1/events' filters: a wallet as the actor or the transfer's receiver", () => {
    expect(matches({}, e)).toBe(true);
    expect(matches({ type: "transfer", token: "0xt" }, e)).toBe(true);
    expect(matches({ type: "swap" }, e)).toBe(false);
    expect(matches({ token: "0xu" }, e)).toBe(false);
    expect(matches({ wallet: "0xa" }, e)).toBe(true);
    expect(matches({ wallet: "0xb" }, e)).toBe(true);
    expect(matches({ wallet: "0xc" }, e)).toBe(false);
  });
});
