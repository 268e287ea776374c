import type { EventType } from "@/lib/domain/vocab";
import type { StreamItem } from "@/lib/queries/event-stream";

/** The filters of a stream: those of GET /v1/events. */
export type StreamFilter = { type?: EventType; token?: string; wallet?: string };

/** Whether an event or a tombstone passes `f`: a wallet's are those it sent and the transfers it received. */
export function matches(f: StreamFilter, e: Pick<StreamItem, "type" | "token" | "wallet" | "to">): boolean {
  return (
    (!f.type || e.type === f.type) &&
    (!f.token || e.token === f.token) &&
    (!f.wallet || e.wallet === f.wallet || e.to === f.wallet)
  );
}

/** Why a stream ends, and what its last message tells the client. */
export const END_REASONS = {
  slow_client: "The client read more slowly than the stream moved; reconnect with Last-Event-ID to resume.",
  key_revoked: "The API key was revoked.",
  plan: "The key's plan no longer includes event streams.",
  rate_limited: "The key ran out of requests (an open stream counts one a minute).",
  server_shutdown: "The server is restarting; reconnect with Last-Event-ID to resume.",
  server_error: "Internal error; reconnect with Last-Event-ID to resume.",
} as const;
export type EndReason = keyof typeof END_REASONS;

/**
 * The stream's messages (text/event-stream). An event is a message of the default type, a
 * tombstone an `removed` one, each with its id as `id:`; `head` tells the indexed head and the
 * confirmed block, with `id:` the position to resume from; `end` is the last message of a stream
 * the server ends. A comment keeps an idle stream open through proxies.
 */
export const frames = {
  retry: (ms: number) => `retry: ${ms}\n\n`,
  event: (id: number | string, json: string) => `id: ${id}\ndata: ${json}\n\n`,
  removed: (id: number | string, json: string) => `event: removed\nid: ${id}\ndata: ${json}\n\n`,
  head: (id: number, head: number, confirmed: number) =>
    `event: head\nid: ${id}\ndata: {"indexed_block":${head},"confirmed_block":${confirmed}}\n\n`,
  end: (reason: EndReason, detail = "") =>
    `event: end\ndata: ${JSON.stringify({ reason, message: `${END_REASONS[reason]}${detail}` })}\n\n`,
  heartbeat: ": keep-alive\n\n",
};

/** Neither cached nor transformed on the way (Next.js compresses what may be transformed), nor buffered by a proxy. */
export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};

/** What a client's catch-up lets wait unread before it reads its next page. */
const PACE_BYTES = 64 * 1024;
const encoder = new TextEncoder();

export type StreamClientOptions = {
  filter: StreamFilter;
  /** The client holds every matching live event up to `pos`, and `wireId` is where it would resume. */
  pos: number;
  wireId: number;
  /** Past this many bytes waiting unread, the stream ends (slow_client). */
  bufferBytes: number;
  /** Called once, when the stream ends for any reason (the client went away, or end()). */
  onEnd: () => void;
};

/**
 * One open stream: its position, and its body, whose queue measures how far its client is
 * behind (what Next.js could not write to the socket yet waits there). Catch-up pages wait for
 * room; the live fan-out never waits, and ends a client that falls too far behind.
 */
export class StreamClient {
  readonly filter: StreamFilter;
  /** Every matching live event with an id up to pos has been sent, and none above it. */
  pos: number;
  /**
   * A live event id at or below pos with no matching live event between the two, or 0 (none):
   * the `id:` of head messages, from which a reconnect resumes exactly.
   */
  wireId: number;
  mode: "catching_up" | "live" | "ended" = "catching_up";
  lastWriteAt = Date.now();
  readonly body: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private waiting: (() => void)[] = [];
  private readonly bufferBytes: number;
  private readonly onEnd: () => void;

  constructor(o: StreamClientOptions) {
    this.filter = o.filter;
    this.pos = o.pos;
    this.wireId = o.wireId;
    this.bufferBytes = o.bufferBytes;
    this.onEnd = o.onEnd;
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        pull: () => this.wake(),
        // The client went away: Next.js cancels the body.
        cancel: () => this.finish(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: PACE_BYTES }),
    );
  }

  get ended() {
    return this.mode === "ended";
  }

  /** Bytes sent that the client has not read yet. */
  get unread(): number {
    return PACE_BYTES - (this.controller.desiredSize ?? 0);
  }

  /** Whether the client has read what it was sent, but for PACE_BYTES. */
  get hasRoom(): boolean {
    return this.ended || this.unread < PACE_BYTES;
  }

  /** Resolves when the client has room (or the stream ended). */
  room(): Promise<void> {
    if (this.hasRoom) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Sends messages; a client that lets more than the bound wait unread gets the last message instead. */
  send(text: string) {
    if (this.ended || text === "") return;
    this.controller.enqueue(encoder.encode(text));
    this.lastWriteAt = Date.now();
    if (this.unread > this.bufferBytes) this.end("slow_client");
  }

  /** Ends the stream with its last message, which follows what is queued. */
  end(reason: EndReason, detail?: string) {
    if (this.ended) return;
    this.controller.enqueue(encoder.encode(frames.end(reason, detail)));
    this.controller.close();
    this.finish();
  }

  private wake() {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  private finish() {
    if (this.ended) return;
    this.mode = "ended";
    this.wake();
    this.onEnd();
  }
}
