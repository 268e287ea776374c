import { describe, expect, it } from "vitest";
import { SseParser } from "./sse";

const feedAll = (chunks: string[]) => {
  const parser = new SseParser();
  const messages = chunks.flatMap((c) => parser.feed(c));
  return { parser, messages };
};

describe("SseParser", () => {
  it("dispatches on a blank line, with the event name, the joined data lines and the last id", () => {
    const { messages } = feedAll(['event: head\ndata: {"a":\ndata: 1}\nid: 7\n\n', "data: plain\n\n"]);
    expect(messages).toEqual([
      { event: "head", data: '{"a":\n1}', lastEventId: "7" },
      { event: "message", data: "plain", lastEventId: "7" },
    ]);
  });

  it("takes CRLF, LF and CR line ends, split anywhere across chunks", () => {
    const text = "id: 1\r\ndata: a\r\n\r\nid: 2\rdata: b\r\rid: 3\ndata: c\n\n";
    const whole = feedAll([text]).messages;
    expect(whole.map((m) => [m.lastEventId, m.data])).toEqual([
      ["1", "a"],
      ["2", "b"],
      ["3", "c"],
    ]);
    for (let cut = 1; cut < text.length; cut++)
      expect(feedAll([text.slice(0, cut), text.slice(cut)]).messages).toEqual(whole);
    expect(feedAll([...text]).messages).toEqual(whole);
  });

  it("ignores comments and unknown fields, keeps the id of an id-only block, reads retry", () => {
    const { parser, messages } = feedAll([": heartbeat\n\nfoo: bar\nretry: 1500\nid: 42\n\nretry: soon\n\n"]);
    expect(messages).toEqual([]);
    expect(parser.lastEventId).toBe("42");
    expect(parser.retry).toBe(1500);
  });

  it("strips one space after the colon only, and keeps a message without a trailing blank line pending", () => {
    const { parser, messages } = feedAll(["data:  two spaces\ndata:none\n\ndata: pending\n"]);
    expect(messages).toEqual([{ event: "message", data: " two spaces\nnone", lastEventId: "" }]);
    expect(parser.feed("\n")).toEqual([{ event: "message", data: "pending", lastEventId: "" }]);
  });
});
