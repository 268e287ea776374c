import createClient, { type Client } from "openapi-fetch";
import { OnchainIntelError } from "./errors.ts";
import type { paths } from "./generated/api.ts";
import { type ListPage, nextAfterId, nextPageNumber, PageIterator, type PagePosition } from "./pagination.ts";
import { type StreamContext, type StreamItem, type StreamOptions, streamEvents } from "./stream.ts";
import {
  type CallOptions,
  defaultSleep,
  type RetryEvent,
  type Sleep,
  send,
  type TransportOptions,
} from "./transport.ts";
import type * as T from "./types.ts";

export type ClientOptions = {
  /** An API key (ocd_live_...). In a browser it is visible to the page's users: use a key meant for that. */
  apiKey: string;
  /** The API's base URL, with /v1. Default http://localhost:3000/v1. */
  baseUrl?: string;
  /** Milliseconds each attempt may take to answer. Default 30,000; a call can set its own. */
  timeout?: number;
  /** Retries after a 429, a 5xx or a lost connection (the last two only for GET, PUT, DELETE). Default 3. */
  maxRetries?: number;
  /** The longest Retry-After (ms) waited out; a 429 asking longer (a daily limit) throws at once. Default 65,000. */
  maxRetryWait?: number;
  /** Another fetch (a proxy's, a test's); default the runtime's. */
  fetch?: (request: Request) => Promise<Response>;
  /** How the client waits between retries and polls (default: a timer); tests pass their own. */
  sleep?: Sleep;
  /** Called before each retry with what is retried and how long the client waits. */
  onRetry?: (event: RetryEvent) => void;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
};

type ApiResult<D> = { data?: D; error?: unknown; response: Response };

/** The query string: comma-joined arrays (the API rejects repeated parameters), no empty values. */
export function serializeQuery(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.set(name, Array.isArray(value) ? value.join(",") : String(value));
  }
  return params.toString();
}

/** The SDK's looser query (numbers, arrays) as the generated wire type; serializeQuery writes it. */
const wire = (query: object) => query as never;

/**
 * The typed client of the Onchain Intel API: one method per endpoint, typed from the OpenAPI
 * document; API errors thrown as OnchainIntelError; 429 retried after Retry-After, 5xx and lost
 * connections of idempotent requests with backoff; paged lists as async iterators.
 */
export class OnchainIntel {
  private readonly api: Client<paths>;
  private readonly transport: TransportOptions;
  private readonly streamContext: StreamContext;

  constructor(options: ClientOptions) {
    if (!options?.apiKey) throw new TypeError("OnchainIntel needs an apiKey.");
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
    this.api = createClient<paths>({ baseUrl, headers, querySerializer: serializeQuery });
    this.streamContext = {
      baseUrl,
      headers,
      transport: this.transport,
      listEvents: (query, call) => this.events.list(query, call),
    };
  }

  /** Every request goes through the retrying transport, with its call's options. */
  private init(call: CallOptions | undefined) {
    return { fetch: (request: Request) => send(request, this.transport, call) };
  }

  /** The data of a success, or the API's error thrown. */
  private async data<D>(request: Promise<ApiResult<D>>): Promise<D> {
    const { data, error, response } = await request;
    if (!response.ok) throw OnchainIntelError.fromResponse(response, error);
    return data as D;
  }

  private paged<P extends ListPage<unknown>>(
    load: (position: PagePosition) => Promise<ApiResult<P>>,
    key: (item: P["data"][number]) => string,
    next: (page: P) => PagePosition | null = nextPageNumber,
  ): PageIterator<P["data"][number], P> {
    return new PageIterator((position) => this.data(load(position)), next, key);
  }

  readonly tokens = {
    /** Tokens by a filter and a sort (GET /tokens); `addresses` looks up to 50 at once. */
    list: (query: T.TokenListQuery = {}, call?: CallOptions) =>
      this.paged(
        (at) => this.api.GET("/tokens", { params: { query: wire({ ...query, ...at }) }, ...this.init(call) }),
        (t) => t.address,
      ),
    /** A token's profile: market figures, risk score and flags, top holders (GET /tokens/{address}). */
    get: (address: string, call?: CallOptions) =>
      this.data(this.api.GET("/tokens/{address}", { params: { path: { address } }, ...this.init(call) })),
    /** USD candles from the token's swaps (GET /tokens/{address}/ohlcv). */
    ohlcv: (address: string, query: T.OhlcvQuery = {}, call?: CallOptions) =>
      this.paged(
        (at) =>
          this.api.GET("/tokens/{address}/ohlcv", {
            params: { path: { address }, query: wire({ ...query, ...at }) },
            ...this.init(call),
          }),
        (c) => c.time,
      ),
    /** The token's real holders, largest first (GET /tokens/{address}/holders). */
    holders: (address: string, query: T.HolderListQuery = {}, call?: CallOptions) =>
      this.paged(
        (at) =>
          this.api.GET("/tokens/{address}/holders", {
            params: { path: { address }, query: wire({ ...query, ...at }) },
            ...this.init(call),
          }),
        (h) => h.address,
      ),
    /** Can it be sold? Taxes, honeypot verdict, owner, code, liquidity locks (GET /tokens/{address}/security). */
    security: (address: string, call?: CallOptions) =>
      this.data(this.api.GET("/tokens/{address}/security", { params: { path: { address } }, ...this.init(call) })),
    /** The pools that trade the token, deepest first (GET /tokens/{address}/pools). */
    pools: (address: string, query: T.PoolListQuery = {}, call?: CallOptions) =>
      this.paged(
        (at) =>
          this.api.GET("/tokens/{address}/pools", {
            params: { path: { address }, query: wire({ ...query, ...at }) },
            ...this.init(call),
          }),
        (p) => p.address,
      ),
  };

  /** Tokens and wallets by the start of a symbol, name or address (GET /search). */
  search(query: T.SearchQuery, call?: CallOptions) {
    return this.paged(
      (at) => this.api.GET("/search", { params: { query: wire({ ...query, ...at }) }, ...this.init(call) }),
      (hit) => `${hit.type}:${hit.address}`,
    );
  }

  readonly wallets = {
    /** A wallet's profile: class, reputation, portfolio, PnL (GET /wallets/{address}). */
    get: (address: string, call?: CallOptions) =>
      this.data(this.api.GET("/wallets/{address}", { params: { path: { address } }, ...this.init(call) })),
    /** A wallet's positions with cost basis and PnL (GET /wallets/{address}/positions). */
    positions: (address: string, query: T.PositionListQuery = {}, call?: CallOptions) =>
      this.paged(
        (at) =>
          this.api.GET("/wallets/{address}/positions", {
            params: { path: { address }, query: wire({ ...query, ...at }) },
            ...this.init(call),
          }),
        (p) => p.token_address,
      ),
    /** The tokens a wallet created, newest first, each with its outcome (GET /wallets/{address}/launches). */
    launches: (address: string, query: T.LaunchListQuery = {}, call?: CallOptions) =>
      this.paged(
        (at) =>
          this.api.GET("/wallets/{address}/launches", {
            params: { path: { address }, query: wire({ ...query, ...at }) },
            ...this.init(call),
          }),
        (l) => l.token_address,
      ),
    /** A wallet's events, newest first (GET /wallets/{address}/events). */
    events: (address: string, query: T.WalletEventListQuery = {}, call?: CallOptions) =>
      this.paged(
        (at) =>
          this.api.GET("/wallets/{address}/events", {
            params: { path: { address }, query: wire({ ...query, ...at }) },
            ...this.init(call),
          }),
        (e) => e.id,
      ),
  };

  readonly events = {
    /**
     * Events of the chain (GET /events). With `order: "asc"` the iterator pages by `after=` (the
     * last id read), so a long read neither skips nor repeats events arriving meanwhile.
     */
    list: (query: T.EventListQuery = {}, call?: CallOptions) =>
      this.paged(
        (at) => this.api.GET("/events", { params: { query: wire({ ...query, ...at }) }, ...this.init(call) }),
        (e) => e.id,
        query.order === "asc" ? nextAfterId : nextPageNumber,
      ),
    /**
     * New events as they are indexed, and tombstones of events reorgs removed: over Server-Sent
     * Events (GET /events/stream), resumed from the last id after a disconnect; by polling
     * GET /events where the stream is not available.
     */
    stream: (options: StreamOptions = {}): AsyncGenerator<StreamItem, void, undefined> =>
      streamEvents(this.streamContext, options),
  };

  readonly scores = {
    /** A token's risk score with its dimensions, flags and their evidence (GET /scores/token/{address}). */
    token: (address: string, call?: CallOptions) =>
      this.data(this.api.GET("/scores/token/{address}", { params: { path: { address } }, ...this.init(call) })),
    /** A wallet's reputation score with its breakdown (GET /scores/wallet/{address}). */
    wallet: (address: string, call?: CallOptions) =>
      this.data(this.api.GET("/scores/wallet/{address}", { params: { path: { address } }, ...this.init(call) })),
  };

  readonly alerts = {
    /** The key's alerts; `status` active (default), paused or all (GET /alerts). */
    list: (query: T.AlertListQuery = {}, call?: CallOptions) =>
      this.paged(
        (at) => this.api.GET("/alerts", { params: { query: wire({ ...query, ...at }) }, ...this.init(call) }),
        (a) => a.id,
      ),
    /** Creates an alert on token conditions (POST /alerts); a webhook alert's secret is in this answer only. */
    create: (body: T.CreateAlert, call?: CallOptions) =>
      this.data(this.api.POST("/alerts", { body, ...this.init(call) })),
    /** An alert with its recent deliveries (GET /alerts/{id}). */
    get: (id: string, call?: CallOptions) =>
      this.data(this.api.GET("/alerts/{id}", { params: { path: { id } }, ...this.init(call) })),
    /** Changes an alert's name, conditions, channel or status (PATCH /alerts/{id}). */
    update: (id: string, body: T.UpdateAlert, call?: CallOptions) =>
      this.data(this.api.PATCH("/alerts/{id}", { params: { path: { id } }, body, ...this.init(call) })),
    /** Pauses an alert: it stops firing until resumed. */
    pause: (id: string, call?: CallOptions) => this.alerts.update(id, { status: "paused" }, call),
    /** Resumes a paused alert. */
    resume: (id: string, call?: CallOptions) => this.alerts.update(id, { status: "active" }, call),
    /** Deletes an alert (DELETE /alerts/{id}). */
    delete: async (id: string, call?: CallOptions): Promise<void> => {
      await this.data(this.api.DELETE("/alerts/{id}", { params: { path: { id } }, ...this.init(call) }));
    },
  };

  /** Data freshness: the indexed block, the chain's head, the lag, the worker (GET /status, no key needed). */
  status(call?: CallOptions) {
    return this.data(this.api.GET("/status", { ...this.init(call) }));
  }
}
