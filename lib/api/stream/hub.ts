import { type Db, getDb, getSql } from "@/db/client";
import { CHECKPOINT_CHANNEL } from "@/db/schema";
import { config } from "@/lib/config";
import { log } from "@/lib/log";
import {
  lastIdOf,
  readResumePoint,
  readStreamChanges,
  readStreamHead,
  type StreamChanges,
  type StreamItem,
  type StreamRollback,
  type StreamView,
} from "@/lib/queries/event-stream";
import { eventJson, listEventRange } from "@/lib/queries/events";
import { authorizeKey } from "../auth";
import { ApiError } from "../errors";
import { frames, matches, StreamClient, type StreamFilter } from "./client";
import { RENEW_MS, releaseLeases, renewLeases } from "./leases";

/** Events per catch-up page (the list's largest page). */
const PAGE = 200;
/** A missed notification (the listening connection was down) is made up for this often. */
const POLL_MS = 5_000;
const TICK_MS = 1_000;
/** An open stream counts one request against its key's limits when it opens, and one each minute after. */
export const CHARGE_EVERY_MS = 60_000;
/** Reads of a resume point that may see other rollbacks than the hub, one after the other. */
const MAX_RESUME_READS = 5;
/** What a client waits before reconnecting (the `retry:` field). */
const RETRY_MS = 2_000;

/** The key a stream is open on: what re-authorizes it each minute, and its lease. */
export type StreamKey = { hash: string; keyId: string; leaseId: string };

type Open = { client: StreamClient; key: StreamKey; chargeAt: number };

/**
 * One process's event stream: every open stream of GET /v1/events/stream is served from here.
 * On each notification that the worker moved its checkpoint (one per committed range or reorg
 * rollback, lib/queries/event-stream.ts), ONE read fetches what changed for all clients: the
 * tombstones of what a rollback removed, the new blocks' events. Each client takes from it what
 * passes its filters. The hub keeps the events of the blocks a reorg can still replace (above the
 * confirmed block, its floor) in memory; a client behind the floor (resuming, or left behind
 * while the worker backfills) reads the final blocks below it in pages of GET /v1/events' query
 * at its own pace, then joins the fan-out from the hub's memory without an await in between, so
 * nothing falls between the two.
 */
export class StreamHub {
  private view: StreamView = { covered: -1, floor: -1, rollbackId: 0 };
  private head = 0;
  private confirmed = -1;
  /** Live events of the blocks in (floor, covered], in id order. */
  private window: StreamItem[] = [];
  /** The last live id at or below the floor's last id (0: none). */
  private baseId = 0;
  private readonly open = new Map<StreamClient, Open>();
  private reading: Promise<void> | null = null;
  private again = false;
  private readWaiters: (() => void)[] = [];
  private timers: NodeJS.Timeout[] = [];
  private charging = false;
  private released: string[] = [];
  private nextRenewAt = 0;
  private readonly watchers = new Set<(c: StreamChanges) => void>();

  private constructor(private readonly db: Db) {}

  /** The process's hub, started on first use. */
  static get(): Promise<StreamHub> {
    const g = globalThis as unknown as { __streamHub?: Promise<StreamHub> };
    g.__streamHub ??= StreamHub.start(getDb()).catch((err) => {
      g.__streamHub = undefined;
      throw err;
    });
    return g.__streamHub;
  }

  private static async start(db: Db): Promise<StreamHub> {
    const hub = new StreamHub(db);
    const h = await readStreamHead(db);
    // The first read loads the blocks above the confirmed one.
    hub.view = { covered: h.confirmed, floor: h.confirmed, rollbackId: h.rollbackId };
    const first = hub.readLatest();
    // Every (re)connection of the listener reads once more: notifications sent while it was down are lost.
    await getSql().listen(
      CHECKPOINT_CHANNEL,
      () => void hub.readLatest(),
      () => void hub.readLatest(),
    );
    await first;
    hub.timers.push(
      setInterval(() => void hub.readLatest(), POLL_MS),
      setInterval(() => hub.tick(), TICK_MS),
    );
    for (const t of hub.timers) t.unref();
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void hub.shutdown());
    return hub;
  }

  /**
   * Opens a stream for `filter`, resuming after `after` (Last-Event-ID or after=), else at the
   * live edge. The resume point is read in a snapshot that saw the same rollbacks as the hub
   * (else read again), and the client is registered in the same synchronous step.
   */
  async connect(filter: StreamFilter, after: number | undefined, key: StreamKey): Promise<StreamClient> {
    const edge = lastIdOf(this.view.covered);
    let start = { pos: edge, wireId: this.lastIdAtOrBelow(edge), text: "" };
    for (let attempt = 1; after !== undefined; attempt++) {
      const point = await readResumePoint(this.db, after);
      if (point.rollbackId === this.view.rollbackId) {
        start = {
          pos: point.pos,
          wireId: point.wireId,
          text: this.rollbackFrames(filter, after, point.rollbacks).text,
        };
        break;
      }
      if (attempt === MAX_RESUME_READS) throw new Error("the event stream's reads of the rollbacks did not agree");
      // The hub has not read the latest rollback yet: after its next read. (Else the hub is ahead: read again.)
      if (point.rollbackId > this.view.rollbackId) await this.nextRead();
    }
    const client = new StreamClient({
      filter,
      pos: start.pos,
      wireId: start.wireId,
      bufferBytes: config.STREAM_BUFFER_BYTES,
      onEnd: () => this.closed(client),
    });
    this.open.set(client, { client, key, chargeAt: Date.now() + CHARGE_EVERY_MS });
    client.send(frames.retry(RETRY_MS) + start.text);
    if (client.pos >= lastIdOf(this.view.floor)) this.join(client);
    else void this.catchUp(client);
    return client;
  }

  /** Calls `watcher` with every read that moved the stream (the dashboard's live feed, live.ts). */
  watch(watcher: (c: StreamChanges) => void) {
    this.watchers.add(watcher);
  }

  /** The indexed head and the confirmed block as of the hub's last read. */
  position(): { head: number; confirmed: number } {
    return { head: this.head, confirmed: this.confirmed };
  }

  /** Reads what changed (at most one read at a time; a request during one makes one more after it). */
  private readLatest(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        this.apply(await readStreamChanges(this.db, this.view));
      } while (this.again);
    })()
      .catch((err) => log.error("event stream read failed", { error: String(err) }))
      .finally(() => {
        this.reading = null;
        for (const wake of this.readWaiters.splice(0)) wake();
      });
    return this.reading;
  }

  /** Resolves after a read that starts from now. */
  private nextRead(): Promise<void> {
    const done = new Promise<void>((resolve) => this.readWaiters.push(resolve));
    if (this.reading) this.again = true;
    else void this.readLatest();
    return done;
  }

  /** Applies a read to the window and to every client, synchronously. */
  private apply(c: StreamChanges) {
    const moved =
      c.head !== this.head || c.confirmed !== this.confirmed || c.rollbacks.length > 0 || c.events.length > 0;
    const keepThrough = lastIdOf(c.lo);
    const dropThrough = lastIdOf(c.floor);
    this.window = [...this.window.filter((e) => e.id > dropThrough && e.id <= keepThrough), ...c.events];
    this.baseId = c.baseId;
    this.view = { covered: c.head, floor: c.floor, rollbackId: c.rollbackId };
    this.head = c.head;
    this.confirmed = c.confirmed;
    if (!moved) return;
    for (const watcher of this.watchers) watcher(c);
    // Each event's message once per read, whichever clients it goes to.
    const messages = new Map<number, string>();
    const message = (e: StreamItem) => {
      let m = messages.get(e.id);
      if (m === undefined) messages.set(e.id, (m = this.eventFrame(e)));
      return m;
    };
    for (const client of this.open.keys()) {
      if (client.ended) continue;
      const removed = this.rollbackFrames(client.filter, client.pos, c.rollbacks);
      if (removed.pos < client.pos) {
        client.pos = removed.pos;
        if (removed.pos >= dropThrough) client.wireId = this.lastIdAtOrBelow(removed.pos);
      }
      let text = removed.text;
      if (client.mode === "live" && client.pos < dropThrough) {
        // Left behind the floor (a backfill moved it by more than the window): pages from here.
        client.mode = "catching_up";
        void this.catchUp(client);
      }
      if (client.mode === "live") text += this.liveFrames(client, message);
      // A client catching up is told the head only while it keeps up with its pages.
      if (client.mode === "live" || client.hasRoom) text += frames.head(client.wireId, this.head, this.confirmed);
      client.send(text);
    }
  }

  /**
   * The tombstones a client at `pos` is to receive for `rollbacks` (in order; each newest first):
   * those of its events, up to where it stands, as each rollback lowers that to its ancestor.
   */
  private rollbackFrames(
    filter: StreamFilter,
    pos: number,
    rollbacks: StreamRollback[],
  ): { text: string; pos: number } {
    let text = "";
    for (const r of rollbacks) {
      for (const t of r.tombstones) if (t.id <= pos && matches(filter, t)) text += frames.removed(t.id, t.json);
      pos = Math.min(pos, lastIdOf(r.ancestor));
    }
    return { text, pos };
  }

  /** The window's events after the client's position that pass its filters; it then stands at the head. */
  private liveFrames(client: StreamClient, message: (e: StreamItem) => string): string {
    let text = "";
    for (let i = this.firstAfter(client.pos); i < this.window.length; i++) {
      const e = this.window[i];
      if (matches(client.filter, e)) text += message(e);
    }
    const end = lastIdOf(this.view.covered);
    // A client resumed from an id the hub has not read yet stays where it is.
    if (client.pos < end) {
      client.pos = end;
      client.wireId = this.lastIdAtOrBelow(end);
    }
    return text;
  }

  /** An event's message, `confirmed` as of the hub's last read. */
  private eventFrame(e: StreamItem): string {
    return frames.event(e.id, eventJson(e.json, e.block <= this.confirmed));
  }

  /** A client joins the fan-out: what the window holds after it, then the head. Synchronous. */
  private join(client: StreamClient) {
    client.mode = "live";
    const text = this.liveFrames(client, (e) => this.eventFrame(e));
    client.send(text + frames.head(client.wireId, this.head, this.confirmed));
  }

  /**
   * Pages of the final blocks after the client's position, each read once the client has read
   * the last (GET /v1/events' query, oldest first), until it reaches the floor: then it joins.
   */
  private async catchUp(client: StreamClient) {
    try {
      while (client.mode === "catching_up") {
        const floorEnd = lastIdOf(this.view.floor);
        if (client.pos >= floorEnd) return this.join(client);
        await client.room();
        const from = client.pos;
        if (client.mode !== "catching_up") return;
        const { type, token, wallet } = client.filter;
        const items = await listEventRange(this.db, {
          type,
          token,
          wallet,
          afterId: from,
          throughId: floorEnd,
          limit: PAGE,
        });
        // A rollback moved the client meanwhile (not below the floor, unless past the finality depth): read again.
        if (client.mode !== "catching_up" || client.pos !== from) continue;
        client.send(items.map((i) => frames.event(i.id, i.json)).join(""));
        if (items.length > 0) client.wireId = Number(items[items.length - 1].id);
        client.pos = items.length < PAGE ? floorEnd : client.wireId;
      }
    } catch (err) {
      log.error("event stream catch-up failed", { error: String(err) });
      client.end("server_error");
    }
  }

  /** The index of the window's first event after `id`. */
  private firstAfter(id: number): number {
    let lo = 0;
    let hi = this.window.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.window[mid].id <= id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The last live id at or below `id`, which is at or above the floor's last id. */
  private lastIdAtOrBelow(id: number): number {
    const i = this.firstAfter(id);
    return i > 0 ? this.window[i - 1].id : this.baseId;
  }

  /** A stream ended: its lease goes, with those of the streams that ended in the same turn of the event loop. */
  private closed(client: StreamClient) {
    const open = this.open.get(client);
    this.open.delete(client);
    if (!open) return;
    this.released.push(open.key.leaseId);
    if (this.released.length > 1) return;
    setImmediate(() => {
      releaseLeases(this.released.splice(0)).catch((err) =>
        log.warn("stream lease release failed", { error: String(err) }),
      );
    });
  }

  /** Heartbeats for idle streams; lease renewal with the revocation check; the per-minute charge. */
  private tick() {
    const now = Date.now();
    for (const client of this.open.keys()) {
      if (now - client.lastWriteAt >= config.STREAM_HEARTBEAT_MS && client.hasRoom) client.send(frames.heartbeat);
    }
    if (now >= this.nextRenewAt) {
      this.nextRenewAt = now + RENEW_MS;
      void this.renew();
    }
    if (!this.charging) {
      this.charging = true;
      void this.charge(now).finally(() => {
        this.charging = false;
      });
    }
  }

  private async renew() {
    const byLease = new Map([...this.open.values()].map((o) => [o.key.leaseId, o.client]));
    try {
      const ending = await renewLeases([...this.open.values()].map((o) => ({ id: o.key.leaseId, keyId: o.key.keyId })));
      for (const [leaseId, reason] of ending) byLease.get(leaseId)?.end(reason);
    } catch (err) {
      log.warn("stream lease renewal failed", { error: String(err) });
    }
  }

  /** Counts a request for each stream open another minute; a key revoked or out of requests ends its streams. */
  private async charge(now: number) {
    for (const o of [...this.open.values()]) {
      if (o.chargeAt > now || o.client.ended) continue;
      try {
        await authorizeKey(o.key.hash);
        o.chargeAt += CHARGE_EVERY_MS;
      } catch (err) {
        if (!(err instanceof ApiError)) log.warn("stream charge failed", { error: String(err) });
        else o.client.end(err.status === 401 ? "key_revoked" : "rate_limited", ` ${err.message}`);
      }
    }
  }

  /** Ends every stream (their clients reconnect elsewhere or after the restart) and frees their leases first. */
  private async shutdown() {
    for (const t of this.timers) clearInterval(t);
    const leases = [...this.open.values()].map((o) => o.key.leaseId);
    await releaseLeases(leases).catch(() => {});
    for (const client of [...this.open.keys()]) client.end("server_shutdown");
  }
}
