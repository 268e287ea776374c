import http from "node:http";

/** A message of a text/event-stream, as EventSource dispatches it; `at`: performance.now() when it arrived. */
export type SseMessage = { event: string; id: string | undefined; data: string; at: number };

/**
 * `onMessage` sees each message as it arrives;
 * `keep: false`: messages go to it only (a benchmark's thousand streams).
 */
export type SseOptions = {
  key: string;
  lastEventId?: string;
  headers?: Record<string, string>;
  onMessage?: (m: SseMessage) => void;
  keep?: boolean;
};

/**
 * A client of a Server-Sent Events stream over node:http (one socket per stream, no pool), as
 * EventSource reads one: messages with their type, the last `id:` seen, comments counted apart.
 * `next` waits for a message (tests); `onMessage` (an option) sees each as it arrives (benchmarks).
 */
export class SseClient {
  readonly messages: SseMessage[] = [];
  comments = 0;
  /** The last `id:` received, as EventSource keeps it for Last-Event-ID. */
  lastEventId: string | undefined;
  readonly closed: Promise<void>;
  private buffer = "";
  private read = 0;
  private waiters: (() => void)[] = [];
  private ended = false;

  private constructor(
    private readonly req: http.ClientRequest,
    readonly res: http.IncomingMessage,
    lastEventId: string | undefined,
    private readonly keep: boolean,
    private readonly onMessage: ((m: SseMessage) => void) | undefined,
  ) {
    this.lastEventId = lastEventId;
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => this.parse(chunk));
    this.closed = new Promise((resolve) => {
      const done = () => {
        this.ended = true;
        this.wake();
        resolve();
      };
      res.once("close", done);
      res.once("error", done);
    });
  }

  /** Opens a stream; resolves with the response (whatever its status) once its headers arrived. */
  static open(url: string, o: SseOptions): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = {
        Accept: "text/event-stream",
        Authorization: `Bearer ${o.key}`,
        ...o.headers,
      };
      if (o.lastEventId !== undefined) headers["Last-Event-ID"] = o.lastEventId;
      const req = http.get(url, { headers, agent: false }, (res) =>
        resolve(new SseClient(req, res, o.lastEventId, o.keep ?? true, o.onMessage)),
      );
      req.once("error", reject);
    });
  }

  get status() {
    return this.res.statusCode ?? 0;
  }

  /** The body of a response that is not a stream (an error), parsed. */
  async json(): Promise<any> {
    await this.closed;
    return JSON.parse(this.buffer);
  }

  /**
   * Waits for the next message not read yet that satisfies `match` (earlier ones are passed over);
   * null if the stream ends first.
   */
  async next(match: (m: SseMessage) => boolean = () => true): Promise<SseMessage | null> {
    for (;;) {
      while (this.read < this.messages.length) {
        const m = this.messages[this.read++];
        if (match(m)) return m;
      }
      if (this.ended) return null;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Waits until `cond` holds, checked whenever something arrives; false if the stream ends first. */
  async until(cond: () => boolean): Promise<boolean> {
    while (!cond()) {
      if (this.ended) return false;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return true;
  }

  /** Stops reading from the socket (a slow client), or starts again. */
  pause() {
    this.res.pause();
  }
  resume() {
    this.res.resume();
  }

  close() {
    this.req.destroy();
    return this.closed;
  }

  private parse(chunk: string) {
    if (this.status !== 200) {
      this.buffer += chunk;
      return;
    }
    this.buffer += chunk;
    let end = this.buffer.indexOf("\n\n");
    while (end >= 0) {
      this.dispatch(this.buffer.slice(0, end));
      this.buffer = this.buffer.slice(end + 2);
      end = this.buffer.indexOf("\n\n");
    }
    this.wake();
  }

  private dispatch(block: string) {
    let event = "message";
    let id: string | undefined;
    const data: string[] = [];
    let fields = 0;
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) {
        this.comments++;
        continue;
      }
      const colon = line.indexOf(":");
      const name = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      fields++;
      if (name === "event") event = value;
      else if (name === "id") id = value;
      else if (name === "data") data.push(value);
    }
    if (id !== undefined) this.lastEventId = id;
    if (fields === 0 || data.length === 0) return;
    const m = { event, id, data: data.join("\n"), at: performance.now() };
    if (this.keep) this.messages.push(m);
    this.onMessage?.(m);
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }
}
