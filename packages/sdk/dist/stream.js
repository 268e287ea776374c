import { OnchainIntelConnectionError, OnchainIntelError } from "./errors.js";
import { readSse, SseParser } from "./sse.js";
import { backoffMs, send } from "./transport.js";
/** Answers that say the stream is not served here (or not on the key's plan): poll instead. */
const NO_STREAM = new Set([403, 404, 405, 501]);
const POLL_LIMIT = 200;
const isConnectionError = (err) => err instanceof OnchainIntelConnectionError || (err instanceof OnchainIntelError && err.status >= 500);
/**
 * The event stream over `/v1/events/stream` (Server-Sent Events): after a disconnect it reconnects
 * with Last-Event-ID (and after=) set to the last id it received, so nothing is missed or repeated.
 * Where the stream is not served, it polls `/v1/events?order=asc&after=` instead.
 */
export async function* streamEvents(ctx, options = {}) {
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
                if (message.lastEventId)
                    lastId = message.lastEventId;
                const data = parseJson(message.data);
                if (message.event === "head")
                    options.onHead?.(data);
                else if (isStreamItem(data))
                    yield data;
            }
        }
        catch (err) {
            if (signal?.aborted)
                throw signal.reason;
            if (!isConnectionError(err))
                throw err;
        }
        // The connection ended or broke: resume after the last id received.
        if (++failures > (options.maxReconnects ?? 8))
            throw new OnchainIntelConnectionError(`The event stream failed ${failures - 1} times in a row.`);
        await ctx.transport.sleep(parser.retry ?? backoffMs(failures - 1, ctx.transport.random), signal);
    }
}
function connect(ctx, options, lastId) {
    const url = new URL(`${ctx.baseUrl}/events/stream`);
    for (const name of ["type", "token_address", "wallet_address"])
        if (options[name] !== undefined)
            url.searchParams.set(name, String(options[name]));
    if (lastId !== undefined)
        url.searchParams.set("after", lastId);
    const headers = { ...ctx.headers, Accept: "text/event-stream" };
    if (lastId !== undefined)
        headers["Last-Event-ID"] = lastId;
    return send(new Request(url, { headers }), ctx.transport, { signal: options.signal });
}
const parseJson = (text) => {
    try {
        return JSON.parse(text);
    }
    catch {
        return undefined;
    }
};
/** An event or a tombstone; other messages (heartbeats, notices) are not yielded. */
const isStreamItem = (data) => typeof data === "object" &&
    data !== null &&
    typeof data.id === "string" &&
    typeof data.type === "string";
/**
 * Polling with the guarantees of the stream (docs/event-stream.md): each pass reads again from
 * the last confirmed event, so a reorg's tombstones and the events that replace removed ones are
 * seen; an event already yielded is not yielded again, and a tombstone only for an event yielded.
 */
async function* pollEvents(ctx, options, start) {
    const { signal } = options;
    const filters = { type: options.type, token_address: options.token_address, wallet_address: options.wallet_address };
    let cursor = start ?? (await latestEventId(ctx, filters, signal));
    /** Yielded events after the cursor, not yet confirmed. */
    const pending = new Set();
    let head;
    const onResponse = (response) => {
        const block = Number(response.headers.get("x-indexed-block"));
        if (response.ok && Number.isSafeInteger(block) && block !== head)
            options.onHead?.({ indexed_block: (head = block) });
    };
    let failures = 0;
    for (;;) {
        let after = cursor;
        let more = true;
        /** Pending events read in this pass: confirmed, with the cursor, once a later event is. */
        let passed = [];
        while (more) {
            let page;
            try {
                page = await ctx.listEvents({ ...filters, after, order: "asc", include_removed: "true", limit: POLL_LIMIT }, { signal, onResponse });
                failures = 0;
            }
            catch (err) {
                if (signal?.aborted || !isConnectionError(err) || ++failures > (options.maxReconnects ?? 8))
                    throw err;
                await ctx.transport.sleep(backoffMs(failures - 1, ctx.transport.random), signal);
                continue;
            }
            for (const item of page.data) {
                after = item.id;
                if ("removed" in item) {
                    if (pending.delete(item.id))
                        yield item;
                    continue;
                }
                if (!pending.has(item.id))
                    yield item;
                if (item.confirmed) {
                    cursor = item.id;
                    for (const id of passed)
                        pending.delete(id);
                    pending.delete(item.id);
                    passed = [];
                }
                else {
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
async function latestEventId(ctx, filters, signal) {
    const page = await ctx.listEvents({ ...filters, order: "desc", include_removed: "true", limit: 1 }, { signal });
    return page.data[0]?.id;
}
