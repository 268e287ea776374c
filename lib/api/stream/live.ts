import { getDb } from "@/db/client";
import { config } from "@/lib/config";
import { log } from "@/lib/log";
import type { StreamChanges } from "@/lib/queries/event-stream";
import { currentDataVersion } from "@/lib/queries/tokens";
import { ApiError } from "../errors";
import { sharedDataVersion } from "../market-reads";
import { StreamClient } from "./client";
import { StreamHub } from "./hub";

/**
 * What the dashboard's live feed (GET /api/live) tells the pages each time the data moves: the
 * data version the shared views now answer at, the indexed head and confirmed block, and the
 * tokens and wallets whose events that move brought (null: too many to list, take it as all).
 */
export type LiveMessage = {
  version: number;
  indexed_block: number;
  confirmed_block: number;
  tokens: string[] | null;
  wallets: string[] | null;
};

/** Past this many tokens (or wallets) in one message, the message says "all" instead (null). */
export const MAX_TOUCHED = 200;
/** How often the feed looks at the shared views' data version while it has clients. */
const TICK_MS = 250;
/** What a browser waits before reconnecting (the `retry:` field). */
const RETRY_MS = 2_000;

/** The feed's messages (text/event-stream): `hello` on connecting, `moved` on each move, `ping` when idle. */
export const liveFrames = {
  hello: (m: Omit<LiveMessage, "tokens" | "wallets">) =>
    `retry: ${RETRY_MS}\n\nevent: hello\ndata: ${JSON.stringify(m)}\n\n`,
  moved: (m: LiveMessage) => `event: moved\ndata: ${JSON.stringify(m)}\n\n`,
  ping: "event: ping\ndata: {}\n\n",
};

/** A connection refused past a cap: the browser tries again after the stream's retry time. */
const busy = (message: string) =>
  new ApiError("RATE_LIMITED", message, undefined, { "Retry-After": String(RETRY_MS / 1000) });

/** A set that gives up listing past MAX_TOUCHED entries (then stands for all). */
class Touched {
  private set: Set<string> | null = new Set();
  add(v: string | null) {
    if (v === null || this.set === null) return;
    this.set.add(v);
    if (this.set.size > MAX_TOUCHED) this.set = null;
  }
  list = (): string[] | null => (this.set ? [...this.set].sort() : null);
  get empty() {
    return this.set?.size === 0;
  }
}

/**
 * The dashboard's live feed, one per process: every open page of every browser (one connection
 * per browser, which its tabs share) is told when the data moves, so it refetches its views then
 * instead of polling. It rides on the event stream's hub (one LISTEN per process, one read per
 * block) for which tokens and wallets a block touched, and on the shared views' own data version
 * poll (lib/api/market-reads.ts) for when to say so: a message goes out once the shared views
 * answer at a version that holds the block, so a page's refetch never reads the view before it,
 * and again when the worker's refresh that follows a block (metrics, scores, values) moves the
 * version without a block, naming the tokens and wallets of the block before. Connections are
 * capped per client address and per process; an idle one is pinged; one whose browser stops
 * reading falls behind the stream's buffer bound and is ended, as the event stream's are.
 */
export class LiveFeed {
  private readonly clients = new Map<StreamClient, string>();
  private readonly perAddress = new Map<string, number>();
  private version = -1;
  private head = 0;
  private confirmed = -1;
  /** What blocks read since the last message touched, and the data version that holds them. */
  private pending: { tokens: Touched; wallets: Touched; version: number } | null = null;
  /** What the last message of blocks named: the refresh after them moves the same tokens and wallets. */
  private lastTouched: Pick<LiveMessage, "tokens" | "wallets"> = { tokens: [], wallets: [] };
  private ticking = false;
  private timer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly sharedVersion: () => Promise<number>,
    private readonly readVersion: () => Promise<number>,
  ) {}

  /** The process's feed, started on first use. */
  static get(): Promise<LiveFeed> {
    const g = globalThis as unknown as { __liveFeed?: Promise<LiveFeed> };
    g.__liveFeed ??= LiveFeed.start().catch((err) => {
      g.__liveFeed = undefined;
      throw err;
    });
    return g.__liveFeed;
  }

  private static async start(): Promise<LiveFeed> {
    const feed = new LiveFeed(sharedDataVersion, () => currentDataVersion(getDb()));
    const hub = await StreamHub.get();
    hub.watch((c) => feed.blocks(c));
    const at = hub.position();
    feed.head = at.head;
    feed.confirmed = at.confirmed;
    feed.version = await feed.sharedVersion();
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => feed.shutdown());
    return feed;
  }

  /** Opens a connection for the client address `address`; 429 past either cap. */
  connect(address: string): StreamClient {
    const mine = this.perAddress.get(address) ?? 0;
    if (mine >= config.LIVE_MAX_PER_CLIENT) {
      throw busy(`At most ${config.LIVE_MAX_PER_CLIENT} live connections per client address (a browser needs one).`);
    }
    if (this.clients.size >= config.LIVE_MAX_CONNECTIONS) {
      throw busy("The server holds all the live connections it can; try again shortly.");
    }
    const client = new StreamClient({
      filter: {},
      pos: 0,
      wireId: 0,
      bufferBytes: config.STREAM_BUFFER_BYTES,
      onEnd: () => this.closed(client),
    });
    this.clients.set(client, address);
    this.perAddress.set(address, mine + 1);
    client.send(liveFrames.hello({ version: this.version, indexed_block: this.head, confirmed_block: this.confirmed }));
    this.timer ??= setInterval(() => void this.tick(), TICK_MS);
    this.timer.unref();
    return client;
  }

  /** A read of the hub that moved the stream: what its blocks (and rollbacks) touched, at the version now. */
  private async blocks(c: StreamChanges) {
    this.head = c.head;
    this.confirmed = c.confirmed;
    if (this.clients.size === 0) return;
    const pending = (this.pending ??= { tokens: new Touched(), wallets: new Touched(), version: 0 });
    for (const e of [...c.events, ...c.rollbacks.flatMap((r) => r.tombstones)]) {
      pending.tokens.add(e.token);
      pending.wallets.add(e.wallet);
      pending.wallets.add(e.to);
    }
    try {
      // Read after the notification: the version of the commit that sent it, or a later one.
      pending.version = Math.max(pending.version, await this.readVersion());
    } catch (err) {
      log.warn("live feed version read failed", { error: String(err) });
    }
    void this.tick();
  }

  /** Sends a message once the shared views answer at a new version, and pings idle connections. */
  private async tick() {
    if (this.ticking) return;
    this.ticking = true;
    try {
      if (this.clients.size === 0) {
        if (this.timer) clearInterval(this.timer);
        this.timer = null;
        return;
      }
      const version = await this.sharedVersion();
      const pending = this.pending;
      if (pending && version >= pending.version) {
        this.pending = null;
        this.lastTouched = { tokens: pending.tokens.list(), wallets: pending.wallets.list() };
        this.send(version, this.lastTouched);
      } else if (!pending && version !== this.version) {
        this.send(version, this.lastTouched);
      }
      const now = Date.now();
      for (const client of this.clients.keys()) {
        if (now - client.lastWriteAt >= config.LIVE_PING_MS) client.send(liveFrames.ping);
      }
    } catch (err) {
      log.warn("live feed tick failed", { error: String(err) });
    } finally {
      this.ticking = false;
    }
  }

  private send(version: number, touched: Pick<LiveMessage, "tokens" | "wallets">) {
    this.version = version;
    const text = liveFrames.moved({ version, indexed_block: this.head, confirmed_block: this.confirmed, ...touched });
    for (const client of this.clients.keys()) client.send(text);
  }

  private closed(client: StreamClient) {
    const address = this.clients.get(client);
    if (address === undefined) return;
    this.clients.delete(client);
    const left = (this.perAddress.get(address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(address, left);
    else this.perAddress.delete(address);
  }

  private shutdown() {
    for (const client of [...this.clients.keys()]) client.end("server_shutdown");
  }
}
