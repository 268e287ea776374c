import type { Alert, CreatedAlert, Event, HolderList, PositionList, RemovedEvent, SearchHit, Token, TokenProfile, TokenScore, WalletProfile, WalletScore } from "onchain-intel";
/**
 * The compact answers of the tools: the fields an agent reasons with, rounded, with a link to the
 * dashboard page. An agent's context is small; every field here earns its place.
 */
/** USD to the cent from a dollar up; four significant digits below (token prices). */
export declare const usd: (n: number | null) => number | null;
/** Percent to a tenth. */
export declare const pct: (n: number | null) => number | null;
/** Pages of the dashboard an answer links to. */
export declare class Links {
    private readonly origin;
    constructor(origin: string);
    token: (address: string) => string;
    wallet: (address: string) => string;
    alerts: () => string;
    events: () => string;
}
export declare function tokenRow(t: Token, links: Links): {
    address: string;
    symbol: string;
    name: string;
    age_hours: number | null;
    price_usd: number | null;
    change_1h_pct: number | null;
    change_24h_pct: number | null;
    liquidity_usd: number | null;
    volume_24h_usd: number | null;
    market_cap_usd: number | null;
    holders: number;
    risk_score: number;
    risk_flags: ("wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting")[];
    url: string;
};
export declare function tokenProfile(t: TokenProfile, score: TokenScore, links: Links): {
    launchpad: string;
    created_at: string;
    change_5m_pct: number | null;
    volume_1h_usd: number | null;
    fdv_usd: number | null;
    txns_24h: {
        buys: number;
        sells: number;
    };
    makers_24h: number;
    summary: string;
    risk: {
        score: number;
        level: "low" | "medium" | "high" | "critical";
        confidence: "low" | "medium" | "high";
        dimensions: {
            holder_concentration_score: number | null;
            liquidity_stability_score: number | null;
            wash_trade_score: number | null;
            smart_money_flow_score: number | null;
        };
        flags: {
            flag: "wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting";
            tripped: string[];
            metrics: {
                [k: string]: number;
            };
            thresholds: {
                [key: string]: number;
            };
            wallet_count: number;
            tx_count: number;
            wallets: string[];
            funder: string | null;
        }[];
        missing_dimensions: {
            dimension: "holder_concentration_score" | "liquidity_stability_score" | "wash_trade_score" | "smart_money_flow_score";
            reason: "no_holders" | "no_liquidity" | "no_recent_trades" | "no_smart_money" | "too_few_closed_positions" | "no_timed_entries" | "too_few_closed_weeks" | "no_positions";
        }[];
    };
    top_holders: {
        address: string;
        holding_pct: number | null;
        classification: "smart_money" | "sniper" | "bot" | "insider" | "whale" | "wash_trader" | "fresh" | "retail";
        net_activity: "accumulating" | "distributing" | "holding" | "exited";
    }[];
    address: string;
    symbol: string;
    name: string;
    age_hours: number | null;
    price_usd: number | null;
    change_1h_pct: number | null;
    change_24h_pct: number | null;
    liquidity_usd: number | null;
    volume_24h_usd: number | null;
    market_cap_usd: number | null;
    holders: number;
    risk_score: number;
    risk_flags: ("wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting")[];
    url: string;
};
export declare function tokenScore(s: TokenScore, links: Links): {
    weights: {
        [key: string]: number;
    };
    weighted_score: number;
    adjustments: ({
        reason: "wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting" | "concentrated_wash_trading" | "severe_holder_concentration" | "severe_liquidity_instability" | "new_token";
        min_score: number;
    } | {
        reason: "wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting" | "concentrated_wash_trading" | "severe_holder_concentration" | "severe_liquidity_instability" | "new_token";
        max_score: number;
    })[];
    top_holder_summary: {
        early_mover_count: number;
        early_mover_net_activity: "accumulating" | "distributing" | "holding" | "exited";
        avg_reputation_top10: number;
    };
    method_version: string;
    updated_at: string;
    url: string;
    score: number;
    level: "low" | "medium" | "high" | "critical";
    confidence: "low" | "medium" | "high";
    dimensions: {
        holder_concentration_score: number | null;
        liquidity_stability_score: number | null;
        wash_trade_score: number | null;
        smart_money_flow_score: number | null;
    };
    flags: {
        flag: "wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting";
        tripped: string[];
        metrics: {
            [k: string]: number;
        };
        thresholds: {
            [key: string]: number;
        };
        wallet_count: number;
        tx_count: number;
        wallets: string[];
        funder: string | null;
    }[];
    missing_dimensions: {
        dimension: "holder_concentration_score" | "liquidity_stability_score" | "wash_trade_score" | "smart_money_flow_score";
        reason: "no_holders" | "no_liquidity" | "no_recent_trades" | "no_smart_money" | "too_few_closed_positions" | "no_timed_entries" | "too_few_closed_weeks" | "no_positions";
    }[];
    address: string;
};
export declare function walletScore(s: WalletScore, links: Links): {
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
        [key: string]: number;
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
    url: string;
};
export declare function holders(list: HolderList): {
    total: number;
    page: number;
    holders: {
        address: string;
        holding_pct: number | null;
        classification: "smart_money" | "sniper" | "bot" | "insider" | "whale" | "wash_trader" | "fresh" | "retail";
        reputation_score: number;
        net_activity: "accumulating" | "distributing" | "holding" | "exited";
        tags: string[];
    }[];
};
export declare function searchHit(hit: SearchHit, links: Links): {
    type: "token";
    address: string;
    symbol: string;
    name: string;
    price_usd: number | null;
    liquidity_usd: number | null;
    volume_24h_usd: number | null;
    url: string;
    classification?: undefined;
    trade_count?: undefined;
    last_seen?: undefined;
} | {
    type: "wallet";
    address: string;
    classification: "smart_money" | "sniper" | "bot" | "insider" | "whale" | "wash_trader" | "fresh" | "retail";
    trade_count: number;
    last_seen: string;
    url: string;
    symbol?: undefined;
    name?: undefined;
    price_usd?: undefined;
    liquidity_usd?: undefined;
    volume_24h_usd?: undefined;
};
export declare function walletProfile(w: WalletProfile, links: Links): {
    address: string;
    classification: "smart_money" | "sniper" | "bot" | "insider" | "whale" | "wash_trader" | "fresh" | "retail";
    reputation_score: number;
    reputation_confidence: "low" | "medium" | "high";
    pnl_usd: number | null;
    pnl_confidence: "low" | "medium" | "high";
    sector_preference: "meme" | "ai" | "defi" | "gaming" | "other";
    trade_count: number;
    first_seen: string;
    portfolio: {
        token_address: string;
        symbol: string;
        quantity: number;
        value_usd: number | null;
    }[];
    portfolio_count: number;
    url: string;
};
export declare function positions(list: PositionList): {
    total: number;
    page: number;
    positions: {
        token_address: string;
        symbol: string;
        status: "open" | "closed";
        value_usd: number | null;
        cost_basis_usd: number | null;
        realized_pnl_usd: number | null;
        unrealized_pnl_usd: number | null;
        pnl_usd: number | null;
        buys: number;
        sells: number;
        last_trade_at: string | null;
    }[];
};
export declare function event(e: Event | RemovedEvent): {
    id: string;
    removed: boolean;
    type: "swap" | "liquidity_add" | "liquidity_remove" | "transfer";
    token_address: string;
    wallet: string;
    block: number;
} | {
    amount_usd: number | null;
    time: string;
    block: number;
    confirmed: boolean;
    to?: string | undefined;
    id: string;
    type: "swap" | "liquidity_add" | "liquidity_remove" | "transfer";
    direction: "buy" | "sell" | null;
    symbol: string;
    token_address: string;
    wallet: string;
    removed?: undefined;
};
export declare function alert(a: Alert | CreatedAlert, links: Links): {
    url: string;
    webhook_secret?: string | undefined;
    last_triggered_at?: string | null | undefined;
    id: string;
    name: string;
    status: "active" | "paused";
    conditions: {
        min_liquidity_usd?: number;
        max_market_cap_usd?: number;
        min_market_cap_usd?: number;
        max_risk_score?: number;
        min_holder_growth_1h_pct?: number;
        max_age_hours?: number;
        exclude_flags?: ("wash_trading" | "liquidity_pulled" | "concentrated_ownership" | "sybil_cluster" | "smart_money_exiting")[];
    };
    channel: "email" | "webhook";
};
