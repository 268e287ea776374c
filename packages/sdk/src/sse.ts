import { OnchainIntelConnectionError } from "./errors.ts";

/** One dispatched Server-Sent Events message. */
export type SseMessage = { event: string; data: string; lastEventId: string };

/**
 * The event-stream parser of the HTML standard (§9.2.6): fields, comments, multi-line data, the
 * last event id (kept across messages, set by an `id:` line even without data) and `retry:`.
 * Fed decoded text in chunks of any size; CRLF, LF and CR all end a line.
 */
export class SseParser {
  lastEventId = "";
  /** The reconnection delay the server asked for, in ms. */
  retry: number | undefined;
  private buffer = "";
  private skipLf = false;
  private event = "";
  private data: string[] = [];

  feed(text: string): SseMessage[] {
    const out: SseMessage[] = [];
    this.buffer += text;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (this.skipLf) {
        this.skipLf = false;
        if (c === "\n" && i === start) {
          start = i + 1;
          continue;
        }
      }
      if (c !== "\n" && c !== "\r") continue;
      const message = this.line(this.buffer.slice(start, i));
      if (message) out.push(message);
      if (c === "\r") {
        if (this.buffer[i + 1] === "\n") i++;
        else if (i + 1 === this.buffer.length) this.skipLf = true;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  private line(line: string): SseMessage | undefined {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    else if (field === "id" && !value.includes("\0")) this.lastEventId = value;
    else if (field === "retry" && /^\d+$/.test(value)) this.retry = Number(value);
    return undefined;
  }

  private dispatch(): SseMessage | undefined {
    const message =
      this.data.length > 0
        ? { event: this.event || "message", data: this.data.join("\n"), lastEventId: this.lastEventId }
        : undefined;
    this.event = "";
    this.data = [];
    return message;
  }
}

export type ReadOptions = { signal?: AbortSignal; idleTimeout: number };

/**
 * The messages of an event-stream body, as they arrive; ends when the body does. A body that
 * breaks, or sends nothing (not even a heartbeat) for `idleTimeout` ms, throws a connection error;
 * an abort throws the signal's reason.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  parser: SseParser,
  { signal, idleTimeout }: ReadOptions,
): AsyncGenerator<SseMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let stopped: unknown;
  const stop = (reason: unknown) => {
    stopped ??= reason;
    reader.cancel().catch(() => {});
  };
  const onAbort = () => stop(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      // Only the wait for bytes is timed, not the consumer's handling of what was yielded.
      const idle = setTimeout(
        () => stop(new OnchainIntelConnectionError(`The event stream sent nothing for ${idleTimeout} ms.`)),
        idleTimeout,
      );
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        throw stopped ?? new OnchainIntelConnectionError(`The event stream broke: ${String(err)}`, { cause: err });
      } finally {
        clearTimeout(idle);
      }
      if (stopped !== undefined) throw stopped;
      if (chunk.done) return;
      yield* parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await reader.cancel().catch(() => {});
  }
}
