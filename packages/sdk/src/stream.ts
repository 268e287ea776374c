import { OnchainIntelConnectionError, OnchainIntelError } from "./errors.ts";
import { readSse, SseParser } from "./sse.ts";
import { backoffMs, type CallOptions, send, type TransportOptions } from "./transport.ts";
import type { Event, EventList, EventListQuery, RemovedEvent } from "./types.ts";

/** What the stream yields: live events, and tombstones (`removed: true`) of events a reorg removed. */
export type StreamItem = Event | RemovedEvent;

/** The indexed head, as the stream reports it between events. */
export type StreamHead = {
  /** The last indexed block: the data's "as of". */
  indexed_block: number;
  /** The last block no reorg will change (SSE only: polling does not report it). */
  confirmed_block?: number;
};

export type StreamOptions = Pick<EventListQuery, "type" | "token_address" | "wallet_address"> & {
  /** Start after this event id (exclusive); by default, from the events arriving now. */
  after?: string;
  signal?: AbortSignal;
  /** Called with each head message (SSE), or the X-Indexed-Block of each poll when it moved. */
  onHead?: (head: StreamHead) => void;
  /** Called once when the stream endpoint is not available and the client polls instead. */
  onFallback?: (status: number) => void;
  /** Milliseconds between polls once caught up (polling only). Default 2,000. */
  pollInterval?: number;
  /** Milliseconds without a byte (data or heartbeat) after which the connection is taken for dead. Default 60,000. */
  idleTimeout?: number;
  /** Failed connections in a row after which the stream gives up. Default 8. */
  maxReconnects?: number;
};

export type StreamContext = {
  baseUrl: string;
  headers: Record<string, string>;
  transport: TransportOptions;
  listEvents: (query: EventListQuery, call: CallOptions) => PromiseLike<EventList>;
};

/** Answers that say the stream is not served here (or not on the key's plan): poll instead. */
const NO_STREAM = new Set([403, 404, 405, 501]);
const POLL_LIMIT = 200;

const isConnectionError = (err: unknown) =>
  err instanceof OnchainIntelConnectionError || (err instanceof OnchainIntelError && err.status >= 500);

/**
 * The event stream over `/v1/events/stream` (Server-Sent Events): after a disconnect it reconnects
 * with Last-Event-ID (and after=) set to the last id it received, so nothing is missed or repeated.
 * Where the stream is not served, it polls `/v1/events?order=asc&after=` instead.
 */
export async function* streamEvents(
  ctx: StreamContext,
  options: StreamOptions = {},
): AsyncGenerator<StreamItem, void, undefined> {
  const { signal } = options;
  let lastId = options.after;
  let failures = 0;
  for (;;) {
    signal?.throwIfAborted();
    const parser = new SseParser();
    try {
      const response = await connect(ctx, options, lastId);
      const sse = response.headers.get("content-type")?.startsWith("text/event-stream");
      if (NO_STREAM.has(response.status) || (response.ok && !sse)) {
        await response.body?.cancel();
        options.onFallback?.(response.status);
        yield* pollEvents(ctx, options, lastId);
        return;
      }
      if (!response.ok || !response.body)
        throw OnchainIntelError.fromResponse(response, await response.json().catch(() => null));
      for await (const message of readSse(response.body, parser, {
        signal,
        idleTimeout: options.idleTimeout ?? 60_000,
      })) {
        failures = 0;
        if (message.lastEventId) lastId = message.lastEventId;
        const data = parseJson(message.data);
        if (message.event === "head") options.onHead?.(data as StreamHead);
        else if (isStreamItem(data)) yield data;
      }
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (!isConnectionError(err)) throw err;
    }
    // The connection ended or broke: resume after the last id received.
    if (++failures > (options.maxReconnects ?? 8))
      throw new OnchainIntelConnectionError(`The event stream failed ${failures - 1} times in a row.`);
    await ctx.transport.sleep(parser.retry ?? backoffMs(failures - 1, ctx.transport.random), signal);
  }
}

function connect(ctx: StreamContext, options: StreamOptions, lastId: string | undefined): Promise<Response> {
  const url = new URL(`${ctx.baseUrl}/events/stream`);
  for (const name of ["type", "token_address", "wallet_address"] as const)
    if (options[name] !== undefined) url.searchParams.set(name, String(options[name]));
  if (lastId !== undefined) url.searchParams.set("after", lastId);
  const headers: Record<string, string> = { ...ctx.headers, Accept: "text/event-stream" };
  if (lastId !== undefined) headers["Last-Event-ID"] = lastId;
  return send(new Request(url, { headers }), ctx.transport, { signal: options.signal });
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** An event or a tombstone; other messages (heartbeats, notices) are not yielded. */
const isStreamItem = (data: unknown): data is StreamItem =>
  typeof data === "object" &&
  data !== null &&
  typeof (data as { id?: unknown }).id === "string" &&
  typeof (data as { type?: unknown }).type === "string";

/**
 * Polling with the guarantees of the stream (docs/event-stream.md): each pass reads again from
 * the last confirmed event, so a reorg's tombstones and the events that replace removed ones are
 * seen; an event already yielded is not yielded again, and a tombstone only for an event yielded.
 */
async function* pollEvents(
  ctx: StreamContext,
  options: StreamOptions,
  start: string | undefined,
): AsyncGenerator<StreamItem, void, undefined> {
  const { signal } = options;
  const filters = { type: options.type, token_address: options.token_address, wallet_address: options.wallet_address };
  let cursor = start ?? (await latestEventId(ctx, filters, signal));
  /** Yielded events after the cursor, not yet confirmed. */
  const pending = new Set<string>();
  let head: number | undefined;
  const onResponse = (response: Response) => {
    const block = Number(response.headers.get("x-indexed-block"));
    if (response.ok && Number.isSafeInteger(block) && block !== head)
      options.onHead?.({ indexed_block: (head = block) });
  };
  let failures = 0;
  for (;;) {
    let after = cursor;
    let more = true;
    /** Pending events read in this pass: confirmed, with the cursor, once a later event is. */
    let passed: string[] = [];
    while (more) {
      let page: EventList;
      try {
        page = await ctx.listEvents(
          { ...filters, after, order: "asc", include_removed: "true", limit: POLL_LIMIT },
          { signal, onResponse },
        );
        failures = 0;
      } catch (err) {
        if (signal?.aborted || !isConnectionError(err) || ++failures > (options.maxReconnects ?? 8)) throw err;
        await ctx.transport.sleep(backoffMs(failures - 1, ctx.transport.random), signal);
        continue;
      }
      for (const item of page.data) {
        after = item.id;
        if ("removed" in item) {
          if (pending.delete(item.id)) yield item;
          continue;
        }
        if (!pending.has(item.id)) yield item;
        if (item.confirmed) {
          cursor = item.id;
          for (const id of passed) pending.delete(id);
          pending.delete(item.id);
          passed = [];
        } else {
          pending.add(item.id);
          passed.push(item.id);
        }
      }
      more = page.data.length === page.limit;
    }
    await ctx.transport.sleep(options.pollInterval ?? 2_000, signal);
  }
}

/** The id of the newest event the filters match (tombstones included): polling starts after it. */
async function latestEventId(
  ctx: StreamContext,
  filters: EventListQuery,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const page = await ctx.listEvents({ ...filters, order: "desc", include_removed: "true", limit: 1 }, { signal });
  return page.data[0]?.id;
}
