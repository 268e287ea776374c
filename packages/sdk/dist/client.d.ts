import { PageIterator } from "./pagination.ts";
import { type StreamItem, type StreamOptions } from "./stream.ts";
import { type CallOptions, type RetryEvent, type Sleep } from "./transport.ts";
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
/** The query string: comma-joined arrays (the API rejects repeated parameters), no empty values. */
export declare function serializeQuery(query: Record<string, unknown>): string;
/**
 * The typed client of the Onchain Intel API: one method per endpoint, typed from the OpenAPI
 * document; API errors thrown as OnchainIntelError; 429 retried after Retry-After, 5xx and lost
 * connections of idempotent requests with backoff; paged lists as async iterators.
 */
export declare class OnchainIntel {
    private readonly api;
    private readonly transport;
    private readonly streamContext;
    constructor(options: ClientOptions);
    /** Every request goes through the retrying transport, with its call's options. */
    private init;
    /** The data of a success, or the API's error thrown. */
    private data;
    private paged;
    readonly tokens: {
        /** Tokens by a filter and a sort (GET /tokens); `addresses` looks up to 50 at once. */
        list: (query?: T.TokenListQuery, call?: CallOptions) => PageIterator<{
            address: string;
            name: string;
            symbol: string;
            market_cap_usd: number;
            volume_24h_usd: number;
            liquidity_usd: number;
            holder_count: number;
            age_hours: number;
            risk_score: number;
            risk_flags: ("wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting")[];
            ai_summary: string;
            launchpad: string;
            price_usd: number;
            price_change_5m_pct: number | null;
            price_change_1h_pct: number | null;
            price_change_24h_pct: number | null;
            volume_1h_usd: number;
            txns_24h: {
                buys: number;
                sells: number;
            };
            makers_24h: number;
            fdv_usd: number;
        }, {
            data: {
                address: string;
                name: string;
                symbol: string;
                market_cap_usd: number;
                volume_24h_usd: number;
                liquidity_usd: number;
                holder_count: number;
                age_hours: number;
                risk_score: number;
                risk_flags: ("wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting")[];
                ai_summary: string;
                launchpad: string;
                price_usd: number;
                price_change_5m_pct: number | null;
                price_change_1h_pct: number | null;
                price_change_24h_pct: number | null;
                volume_1h_usd: number;
                txns_24h: {
                    buys: number;
                    sells: number;
                };
                makers_24h: number;
                fdv_usd: number;
            }[];
            total: number;
            page: number;
            limit: number;
        }>;
        /** A token's profile: market figures, risk score and flags, top holders (GET /tokens/{address}). */
        get: (address: string, call?: CallOptions) => Promise<{
            address: string;
            name: string;
            symbol: string;
            market_cap_usd: number;
            volume_24h_usd: number;
            liquidity_usd: number;
            holder_count: number;
            age_hours: number;
            risk_score: number;
            risk_flags: ("wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting")[];
            ai_summary: string;
            launchpad: string;
            price_usd: number;
            price_change_5m_pct: number | null;
            price_change_1h_pct: number | null;
            price_change_24h_pct: number | null;
            volume_1h_usd: number;
            txns_24h: {
                buys: number;
                sells: number;
            };
            makers_24h: number;
            fdv_usd: number;
            top_holders: {
                address: string;
                holding_pct: number;
                classification: "smart_money" | "sniper" | "bot" | "insider" | "whale" | "wash_trader" | "fresh" | "retail";
                reputation_score: number;
                net_activity: "accumulating" | "distributing" | "holding" | "exited";
                tags: string[];
            }[];
            created_at: string;
        }>;
        /** USD candles from the token's swaps (GET /tokens/{address}/ohlcv). */
        ohlcv: (address: string, query?: T.OhlcvQuery, call?: CallOptions) => PageIterator<{
            time: string;
            open: number;
            high: number;
            low: number;
            close: number;
            volume_usd: number;
            trades: number;
        }, {
            data: {
                time: string;
                open: number;
                high: number;
                low: number;
                close: number;
                volume_usd: number;
                trades: number;
            }[];
            total: number;
            page: number;
            limit: number;
        }>;
        /** The token's real holders, largest first (GET /tokens/{address}/holders). */
        holders: (address: string, query?: T.HolderListQuery, call?: CallOptions) => PageIterator<{
            address: string;
            holding_pct: number;
            classification: "smart_money" | "sniper" | "bot" | "insider" | "whale" | "wash_trader" | "fresh" | "retail";
            reputation_score: number;
            net_activity: "accumulating" | "distributing" | "holding" | "exited";
            tags: string[];
            quantity: number;
            value_usd: number;
        }, {
            data: {
                address: string;
                holding_pct: number;
                classification: "smart_money" | "sniper" | "bot" | "insider" | "whale" | "wash_trader" | "fresh" | "retail";
                reputation_score: number;
                net_activity: "accumulating" | "distributing" | "holding" | "exited";
                tags: string[];
                quantity: number;
                value_usd: number;
            }[];
            total: number;
            page: number;
            limit: number;
        }>;
        /** The pools that trade the token, deepest first (GET /tokens/{address}/pools). */
        pools: (address: string, query?: T.PoolListQuery, call?: CallOptions) => PageIterator<{
            address: string;
            protocol: "uniswap_v2" | "uniswap_v3";
            dex: string;
            pair_token_address: string;
            pair_token_symbol: string | null;
            liquidity_usd: number;
            price_usd: number | null;
            volume_24h_usd: number;
            swaps_24h: number;
            is_price_source: boolean;
        }, {
            data: {
                address: string;
                protocol: "uniswap_v2" | "uniswap_v3";
                dex: string;
                pair_token_address: string;
                pair_token_symbol: string | null;
                liquidity_usd: number;
                price_usd: number | null;
                volume_24h_usd: number;
                swaps_24h: number;
                is_price_source: boolean;
            }[];
            total: number;
            page: number;
            limit: number;
        }>;
    };
    /** Tokens and wallets by the start of a symbol, name or address (GET /search). */
    search(query: T.SearchQuery, call?: CallOptions): PageIterator<{
        type: "token";
        address: string;
        name: string;
        symbol: string;
        price_usd: number;
        liquidity_usd: number;
        volume_24h_usd: number;
        matched: "symbol" | "name" | "address";
    } | {
        type: "wallet";
        address: string;
        classification: "smart_money" | "sniper" | "bot" | "insider" | "whale" | "wash_trader" | "fresh" | "retail";
        trade_count: number;
        last_seen: string;
        matched: "symbol" | "name" | "address";
    }, {
        data: ({
            type: "token";
            address: string;
            name: string;
            symbol: string;
            price_usd: number;
            liquidity_usd: number;
            volume_24h_usd: number;
            matched: "symbol" | "name" | "address";
        } | {
            type: "wallet";
            address: string;
            classification: "smart_money" | "sniper" | "bot" | "insider" | "whale" | "wash_trader" | "fresh" | "retail";
            trade_count: number;
            last_seen: string;
            matched: "symbol" | "name" | "address";
        })[];
        total: number;
        page: number;
        limit: number;
    }>;
    readonly wallets: {
        /** A wallet's profile: class, reputation, portfolio, PnL (GET /wallets/{address}). */
        get: (address: string, call?: CallOptions) => Promise<{
            address: string;
            classification: "smart_money" | "sniper" | "bot" | "insider" | "whale" | "wash_trader" | "fresh" | "retail";
            reputation_score: number;
            reputation_confidence: "low" | "medium" | "high";
            portfolio: {
                token_address: string;
                token_symbol: string;
                quantity: number;
                value_usd: number;
            }[];
            pnl_estimate_usd: number;
            pnl_confidence: "low" | "medium" | "high";
            sector_preference: "meme" | "ai" | "defi" | "gaming" | "other";
            trade_count: number;
            first_seen: string;
        }>;
        /** A wallet's positions with cost basis and PnL (GET /wallets/{address}/positions). */
        positions: (address: string, query?: T.PositionListQuery, call?: CallOptions) => PageIterator<{
            token_address: string;
            token_symbol: string;
            status: "open" | "closed";
            quantity: number;
            value_usd: number;
            cost_basis_usd: number;
            realized_pnl_usd: number;
            unrealized_pnl_usd: number;
            pnl_usd: number;
            bought_usd: number;
            sold_usd: number;
            buy_count: number;
            sell_count: number;
            unknown_cost_quantity: number;
            first_trade_at: string | null;
            last_trade_at: string | null;
        }, {
            data: {
                token_address: string;
                token_symbol: string;
                status: "open" | "closed";
                quantity: number;
                value_usd: number;
                cost_basis_usd: number;
                realized_pnl_usd: number;
                unrealized_pnl_usd: number;
                pnl_usd: number;
                bought_usd: number;
                sold_usd: number;
                buy_count: number;
                sell_count: number;
                unknown_cost_quantity: number;
                first_trade_at: string | null;
                last_trade_at: string | null;
            }[];
            total: number;
            page: number;
            limit: number;
        }>;
        /** A wallet's events, newest first (GET /wallets/{address}/events). */
        events: (address: string, query?: T.WalletEventListQuery, call?: CallOptions) => PageIterator<{
            id: string;
            type: "swap" | "liquidity_add" | "liquidity_remove" | "transfer";
            to_address?: string | undefined;
            token_address: string;
            token_symbol: string;
            amount_usd: number;
            direction: ("buy" | "sell") | null;
            timestamp: string;
            block_number: number;
            tx_hash: string;
            confirmed: boolean;
        }, {
            data: {
                id: string;
                type: "swap" | "liquidity_add" | "liquidity_remove" | "transfer";
                to_address?: string | undefined;
                token_address: string;
                token_symbol: string;
                amount_usd: number;
                direction: ("buy" | "sell") | null;
                timestamp: string;
                block_number: number;
                tx_hash: string;
                confirmed: boolean;
            }[];
            total: number;
            page: number;
            limit: number;
        }>;
    };
    readonly events: {
        /**
         * Events of the chain (GET /events). With `order: "asc"` the iterator pages by `after=` (the
         * last id read), so a long read neither skips nor repeats events arriving meanwhile.
         */
        list: (query?: T.EventListQuery, call?: CallOptions) => PageIterator<{
            id: string;
            type: "swap" | "liquidity_add" | "liquidity_remove" | "transfer";
            to_address?: string | undefined;
            token_address: string;
            token_symbol: string;
            amount_usd: number;
            direction: ("buy" | "sell") | null;
            timestamp: string;
            block_number: number;
            tx_hash: string;
            confirmed: boolean;
            wallet_address: string;
        } | {
            id: string;
            removed: true;
            type: "swap" | "liquidity_add" | "liquidity_remove" | "transfer";
            wallet_address: string;
            to_address?: string | undefined;
            token_address: string;
            timestamp: string;
            block_number: number;
            tx_hash: string;
        }, {
            data: ({
                id: string;
                type: "swap" | "liquidity_add" | "liquidity_remove" | "transfer";
                to_address?: string | undefined;
                token_address: string;
                token_symbol: string;
                amount_usd: number;
                direction: ("buy" | "sell") | null;
                timestamp: string;
                block_number: number;
                tx_hash: string;
                confirmed: boolean;
                wallet_address: string;
            } | {
                id: string;
                removed: true;
                type: "swap" | "liquidity_add" | "liquidity_remove" | "transfer";
                wallet_address: string;
                to_address?: string | undefined;
                token_address: string;
                timestamp: string;
                block_number: number;
                tx_hash: string;
            })[];
            total: number;
            page: number;
            limit: number;
        }>;
        /**
         * New events as they are indexed, and tombstones of events reorgs removed: over Server-Sent
         * Events (GET /events/stream), resumed from the last id after a disconnect; by polling
         * GET /events where the stream is not available.
         */
        stream: (options?: StreamOptions) => AsyncGenerator<StreamItem, void, undefined>;
    };
    readonly scores: {
        /** A token's risk score with its dimensions, flags and their evidence (GET /scores/token/{address}). */
        token: (address: string, call?: CallOptions) => Promise<{
            address: string;
            risk_score: number;
            risk_level: "low" | "medium" | "high" | "critical";
            confidence: "low" | "medium" | "high";
            flags: ("wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting")[];
            dimensions: {
                holder_concentration_score: number | null;
                liquidity_stability_score: number | null;
                wash_trade_score: number | null;
                smart_money_flow_score: number | null;
            };
            weights: {
                [x: string]: number;
            };
            weighted_score: number;
            adjustments: ({
                reason: "wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting" | "concentrated_wash_trading" | "severe_holder_concentration" | "severe_liquidity_instability" | "new_token";
                min_score: number;
            } | {
                reason: "wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting" | "concentrated_wash_trading" | "severe_holder_concentration" | "severe_liquidity_instability" | "new_token";
                max_score: number;
            })[];
            missing_dimensions: {
                dimension: "holder_concentration_score" | "liquidity_stability_score" | "wash_trade_score" | "smart_money_flow_score";
                reason: "no_holders" | "no_liquidity" | "no_recent_trades" | "no_smart_money" | "too_few_closed_positions" | "no_timed_entries" | "too_few_closed_weeks" | "no_positions";
            }[];
            signals_missing: "wallet_funding"[];
            top_holder_summary: {
                early_mover_count: number;
                early_mover_net_activity: "accumulating" | "distributing" | "holding" | "exited";
                avg_reputation_top10: number;
            };
            flag_evidence: {
                flag: "wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting";
                wallets: string[];
                tx_hashes: string[];
                wallet_count: number;
                tx_count: number;
                funder: string | null;
                metrics: {
                    [x: string]: number;
                };
                thresholds: {
                    [x: string]: number;
                };
                tripped: string[];
            }[];
            method_version: string;
            updated_at: string;
        }>;
        /** A wallet's reputation score with its breakdown (GET /scores/wallet/{address}). */
        wallet: (address: string, call?: CallOptions) => Promise<{
            address: string;
            reputation_score: number;
            confidence: "low" | "medium" | "high";
            classification: "smart_money" | "sniper" | "bot" | "insider" | "whale" | "wash_trader" | "fresh" | "retail";
            dimensions: {
                win_rate: number | null;
                entry_timing_score: number | null;
                consistency_score: number | null;
                risk_drawdown_score: number | null;
            };
            weights: {
                [x: string]: number;
            };
            weighted_score: number;
            adjustments: ({
                reason: "low_confidence" | "pulled_own_launch_liquidity" | "insider_dump";
                min_score: number;
            } | {
                reason: "low_confidence" | "pulled_own_launch_liquidity" | "insider_dump";
                max_score: number;
            })[];
            missing_dimensions: {
                dimension: "win_rate" | "entry_timing_score" | "consistency_score" | "risk_drawdown_score";
                reason: "no_holders" | "no_liquidity" | "no_recent_trades" | "no_smart_money" | "too_few_closed_positions" | "no_timed_entries" | "too_few_closed_weeks" | "no_positions";
            }[];
            closed_positions: number;
            trade_count: number;
            method_version: string;
            updated_at: string;
        }>;
    };
    readonly alerts: {
        /** The key's alerts; `status` active (default), paused or all (GET /alerts). */
        list: (query?: T.AlertListQuery, call?: CallOptions) => PageIterator<{
            id: string;
            name: string;
            status: "active" | "paused";
            conditions: {
                min_liquidity_usd?: number | undefined;
                max_market_cap_usd?: number | undefined;
                min_market_cap_usd?: number | undefined;
                max_risk_score?: number | undefined;
                min_holder_growth_1h_pct?: number | undefined;
                max_age_hours?: number | undefined;
                exclude_flags?: ("wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting")[] | undefined;
            };
            notification_channel: "email" | "webhook";
            webhook_url?: string | undefined;
            created_at: string;
            last_triggered_at: string | null;
        }, {
            data: {
                id: string;
                name: string;
                status: "active" | "paused";
                conditions: {
                    min_liquidity_usd?: number | undefined;
                    max_market_cap_usd?: number | undefined;
                    min_market_cap_usd?: number | undefined;
                    max_risk_score?: number | undefined;
                    min_holder_growth_1h_pct?: number | undefined;
                    max_age_hours?: number | undefined;
                    exclude_flags?: ("wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting")[] | undefined;
                };
                notification_channel: "email" | "webhook";
                webhook_url?: string | undefined;
                created_at: string;
                last_triggered_at: string | null;
            }[];
            total: number;
            page: number;
            limit: number;
        }>;
        /** Creates an alert on token conditions (POST /alerts); a webhook alert's secret is in this answer only. */
        create: (body: T.CreateAlert, call?: CallOptions) => Promise<{
            id: string;
            name: string;
            status: "active" | "paused";
            conditions: {
                min_liquidity_usd?: number | undefined;
                max_market_cap_usd?: number | undefined;
                min_market_cap_usd?: number | undefined;
                max_risk_score?: number | undefined;
                min_holder_growth_1h_pct?: number | undefined;
                max_age_hours?: number | undefined;
                exclude_flags?: ("wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting")[] | undefined;
            };
            notification_channel: "email" | "webhook";
            webhook_url?: string | undefined;
            created_at: string;
            webhook_secret?: string | undefined;
        }>;
        /** An alert with its recent deliveries (GET /alerts/{id}). */
        get: (id: string, call?: CallOptions) => Promise<{
            id: string;
            name: string;
            status: "active" | "paused";
            conditions: {
                min_liquidity_usd?: number | undefined;
                max_market_cap_usd?: number | undefined;
                min_market_cap_usd?: number | undefined;
                max_risk_score?: number | undefined;
                min_holder_growth_1h_pct?: number | undefined;
                max_age_hours?: number | undefined;
                exclude_flags?: ("wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting")[] | undefined;
            };
            notification_channel: "email" | "webhook";
            webhook_url?: string | undefined;
            created_at: string;
            last_triggered_at: string | null;
            deliveries: {
                id: string;
                channel: "email" | "webhook";
                status: "pending" | "sent" | "failed";
                attempts: number;
                created_at: string;
                sent_at: string | null;
                last_error: string | null;
                tokens: string[];
            }[];
        }>;
        /** Changes an alert's name, conditions, channel or status (PATCH /alerts/{id}). */
        update: (id: string, body: T.UpdateAlert, call?: CallOptions) => Promise<{
            id: string;
            name: string;
            status: "active" | "paused";
            conditions: {
                min_liquidity_usd?: number | undefined;
                max_market_cap_usd?: number | undefined;
                min_market_cap_usd?: number | undefined;
                max_risk_score?: number | undefined;
                min_holder_growth_1h_pct?: number | undefined;
                max_age_hours?: number | undefined;
                exclude_flags?: ("wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting")[] | undefined;
            };
            notification_channel: "email" | "webhook";
            webhook_url?: string | undefined;
            created_at: string;
            last_triggered_at: string | null;
        }>;
        /** Pauses an alert: it stops firing until resumed. */
        pause: (id: string, call?: CallOptions) => Promise<{
            id: string;
            name: string;
            status: "active" | "paused";
            conditions: {
                min_liquidity_usd?: number | undefined;
                max_market_cap_usd?: number | undefined;
                min_market_cap_usd?: number | undefined;
                max_risk_score?: number | undefined;
                min_holder_growth_1h_pct?: number | undefined;
                max_age_hours?: number | undefined;
                exclude_flags?: ("wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting")[] | undefined;
            };
            notification_channel: "email" | "webhook";
            webhook_url?: string | undefined;
            created_at: string;
            last_triggered_at: string | null;
        }>;
        /** Resumes a paused alert. */
        resume: (id: string, call?: CallOptions) => Promise<{
            id: string;
            name: string;
            status: "active" | "paused";
            conditions: {
                min_liquidity_usd?: number | undefined;
                max_market_cap_usd?: number | undefined;
                min_market_cap_usd?: number | undefined;
                max_risk_score?: number | undefined;
                min_holder_growth_1h_pct?: number | undefined;
                max_age_hours?: number | undefined;
                exclude_flags?: ("wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting")[] | undefined;
            };
            notification_channel: "email" | "webhook";
            webhook_url?: string | undefined;
            created_at: string;
            last_triggered_at: string | null;
        }>;
        /** Deletes an alert (DELETE /alerts/{id}). */
        delete: (id: string, call?: CallOptions) => Promise<void>;
    };
    /** Data freshness: the indexed block, the chain's head, the lag, the worker (GET /status, no key needed). */
    status(call?: CallOptions): Promise<{
        chain_id: number | null;
        head_block: number | null;
        head_block_time: string | null;
        head_checked_at: string | null;
        indexed_block: number | null;
        indexed_block_time: string | null;
        lag_blocks: number | null;
        lag_seconds: number | null;
        healthy: boolean;
        reasons: ("worker_down" | "chain_unreachable" | "lagging" | "indexing_failing" | "quarantine")[];
        message: string;
        quarantined_entities: number;
        worker: {
            alive: boolean;
            heartbeat_at: string | null;
            consecutive_failures: number;
            last_failure_at: string | null;
        };
        thresholds: {
            max_lag_seconds: number;
            max_quarantined_entities: number;
            worker_timeout_seconds: number;
        };
    }>;
}
