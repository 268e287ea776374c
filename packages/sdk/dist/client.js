import createClient, {} from "openapi-fetch";
import { OnchainIntelError } from "./errors.js";
import { nextAfterId, nextPageNumber, PageIterator } from "./pagination.js";
import { streamEvents } from "./stream.js";
import { defaultSleep, send, } from "./transport.js";
/** The query string: comma-joined arrays (the API rejects repeated parameters), no empty values. */
export function serializeQuery(query) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
        if (value === undefined || value === null)
            continue;
        params.set(name, Array.isArray(value) ? value.join(",") : String(value));
    }
    return params.toString();
}
/** The SDK's looser query (numbers, arrays) as the generated wire type; serializeQuery writes it. */
const wire = (query) => query;
/**
 * The typed client of the Onchain Intel API: one method per endpoint, typed from the OpenAPI
 * document; API errors thrown as OnchainIntelError; 429 retried after Retry-After, 5xx and lost
 * connections of idempotent requests with backoff; paged lists as async iterators.
 */
export class OnchainIntel {
    api;
    transport;
    streamContext;
    constructor(options) {
        if (!options?.apiKey)
            throw new TypeError("OnchainIntel needs an apiKey.");
        const baseUrl = (options.baseUrl ?? "http://localhost:3000/v1").replace(/\/+$/, "");
        const headers = { ...options.headers, Authorization: `Bearer ${options.apiKey}` };
        this.transport = {
            fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
            timeout: options.timeout ?? 30_000,
            maxRetries: options.maxRetries ?? 3,
            maxRetryWait: options.maxRetryWait ?? 65_000,
            sleep: options.sleep ?? defaultSleep,
            random: Math.random,
            onRetry: options.onRetry,
        };
        this.api = createClient({ baseUrl, headers, querySerializer: serializeQuery });
        this.streamContext = {
            baseUrl,
            headers,
            transport: this.transport,
            listEvents: (query, call) => this.events.list(query, call),
        };
    }
    /** Every request goes through the retrying transport, with its call's options. */
    init(call) {
        return { fetch: (request) => send(request, this.transport, call) };
    }
    /** The data of a success, or the API's error thrown. */
    async data(request) {
        const { data, error, response } = await request;
        if (!response.ok)
            throw OnchainIntelError.fromResponse(response, error);
        return data;
    }
    paged(load, key, next = nextPageNumber) {
        return new PageIterator((position) => this.data(load(position)), next, key);
    }
    tokens = {
        /** Tokens by a filter and a sort (GET /tokens); `addresses` looks up to 50 at once. */
        list: (query = {}, call) => this.paged((at) => this.api.GET("/tokens", { params: { query: wire({ ...query, ...at }) }, ...this.init(call) }), (t) => t.address),
        /** A token's profile: market figures, risk score and flags, top holders (GET /tokens/{address}). */
        get: (address, call) => this.data(this.api.GET("/tokens/{address}", { params: { path: { address } }, ...this.init(call) })),
        /** USD candles from the token's swaps (GET /tokens/{address}/ohlcv). */
        ohlcv: (address, query = {}, call) => this.paged((at) => this.api.GET("/tokens/{address}/ohlcv", {
            params: { path: { address }, query: wire({ ...query, ...at }) },
            ...this.init(call),
        }), (c) => c.time),
        /** The token's real holders, largest first (GET /tokens/{address}/holders). */
        holders: (address, query = {}, call) => this.paged((at) => this.api.GET("/tokens/{address}/holders", {
            params: { path: { address }, query: wire({ ...query, ...at }) },
            ...this.init(call),
        }), (h) => h.address),
        /** The pools that trade the token, deepest first (GET /tokens/{address}/pools). */
        pools: (address, query = {}, call) => this.paged((at) => this.api.GET("/tokens/{address}/pools", {
            params: { path: { address }, query: wire({ ...query, ...at }) },
            ...this.init(call),
        }), (p) => p.address),
    };
    /** Tokens and wallets by the start of a symbol, name or address (GET /search). */
    search(query, call) {
        return this.paged((at) => this.api.GET("/search", { params: { query: wire({ ...query, ...at }) }, ...this.init(call) }), (hit) => `${hit.type}:${hit.address}`);
    }
    wallets = {
        /** A wallet's profile: class, reputation, portfolio, PnL (GET /wallets/{address}). */
        get: (address, call) => this.data(this.api.GET("/wallets/{address}", { params: { path: { address } }, ...this.init(call) })),
        /** A wallet's positions with cost basis and PnL (GET /wallets/{address}/positions). */
        positions: (address, query = {}, call) => this.paged((at) => this.api.GET("/wallets/{address}/positions", {
            params: { path: { address }, query: wire({ ...query, ...at }) },
            ...this.init(call),
        }), (p) => p.token_address),
        /** A wallet's events, newest first (GET /wallets/{address}/events). */
        events: (address, query = {}, call) => this.paged((at) => this.api.GET("/wallets/{address}/events", {
            params: { path: { address }, query: wire({ ...query, ...at }) },
            ...this.init(call),
        }), (e) => e.id),
    };
    events = {
        /**
         * Events of the chain (GET /events). With `order: "asc"` the iterator pages by `after=` (the
         * last id read), so a long read neither skips nor repeats events arriving meanwhile.
         */
        list: (query = {}, call) => this.paged((at) => this.api.GET("/events", { params: { query: wire({ ...query, ...at }) }, ...this.init(call) }), (e) => e.id, query.order === "asc" ? nextAfterId : nextPageNumber),
        /**
         * New events as they are indexed, and tombstones of events reorgs removed: over Server-Sent
         * Events (GET /events/stream), resumed from the last id after a disconnect; by polling
         * GET /events where the stream is not available.
         */
        stream: (options = {}) => streamEvents(this.streamContext, options),
    };
    scores = {
        /** A token's risk score with its dimensions, flags and their evidence (GET /scores/token/{address}). */
        token: (address, call) => this.data(this.api.GET("/scores/token/{address}", { params: { path: { address } }, ...this.init(call) })),
        /** A wallet's reputation score with its breakdown (GET /scores/wallet/{address}). */
        wallet: (address, call) => this.data(this.api.GET("/scores/wallet/{address}", { params: { path: { address } }, ...this.init(call) })),
    };
    alerts = {
        /** The key's alerts; `status` active (default), paused or all (GET /alerts). */
        list: (query = {}, call) => this.paged((at) => this.api.GET("/alerts", { params: { query: wire({ ...query, ...at }) }, ...this.init(call) }), (a) => a.id),
        /** Creates an alert on token conditions (POST /alerts); a webhook alert's secret is in this answer only. */
        create: (body, call) => this.data(this.api.POST("/alerts", { body, ...this.init(call) })),
        /** An alert with its recent deliveries (GET /alerts/{id}). */
        get: (id, call) => this.data(this.api.GET("/alerts/{id}", { params: { path: { id } }, ...this.init(call) })),
        /** Changes an alert's name, conditions, channel or status (PATCH /alerts/{id}). */
        update: (id, body, call) => this.data(this.api.PATCH("/alerts/{id}", { params: { path: { id } }, body, ...this.init(call) })),
        /** Pauses an alert: it stops firing until resumed. */
        pause: (id, call) => this.alerts.update(id, { status: "paused" }, call),
        /** Resumes a paused alert. */
        resume: (id, call) => this.alerts.update(id, { status: "active" }, call),
        /** Deletes an alert (DELETE /alerts/{id}). */
        delete: async (id, call) => {
            await this.data(this.api.DELETE("/alerts/{id}", { params: { path: { id } }, ...this.init(call) }));
        },
    };
    /** Data freshness: the indexed block, the chain's head, the lag, the worker (GET /status, no key needed). */
    status(call) {
        return this.data(this.api.GET("/status", { ...this.init(call) }));
    }
}
