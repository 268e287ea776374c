import { type CallOptions, type TransportOptions } from "./transport.ts";
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
/**
 * The event stream over `/v1/events/stream` (Server-Sent Events): after a disconnect it reconnects
 * with Last-Event-ID (and after=) set to the last id it received, so nothing is missed or repeated.
 * Where the stream is not served, it polls `/v1/events?order=asc&after=` instead.
 */
export declare function streamEvents(ctx: StreamContext, options?: StreamOptions): AsyncGenerator<StreamItem, void, undefined>;
