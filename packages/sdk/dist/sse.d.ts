/** One dispatched Server-Sent Events message. */
export type SseMessage = {
    event: string;
    data: string;
    lastEventId: string;
};
/**
 * The event-stream parser of the HTML standard (§9.2.6): fields, comments, multi-line data, the
 * last event id (kept across messages, set by an `id:` line even without data) and `retry:`.
 * Fed decoded text in chunks of any size; CRLF, LF and CR all end a line.
 */
export declare class SseParser {
    lastEventId: string;
    /** The reconnection delay the server asked for, in ms. */
    retry: number | undefined;
    private buffer;
    private skipLf;
    private event;
    private data;
    feed(text: string): SseMessage[];
    private line;
    private dispatch;
}
export type ReadOptions = {
    signal?: AbortSignal;
    idleTimeout: number;
};
/**
 * The messages of an event-stream body, as they arrive; ends when the body does. A body that
 * breaks, or sends nothing (not even a heartbeat) for `idleTimeout` ms, throws a connection error;
 * an abort throws the signal's reason.
 */
export declare function readSse(body: ReadableStream<Uint8Array>, parser: SseParser, { signal, idleTimeout }: ReadOptions): AsyncGenerator<SseMessage, void, undefined>;
