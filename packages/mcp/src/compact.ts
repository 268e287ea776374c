import type {
  Alert,
  CreatedAlert,
  Event,
  HolderList,
  LaunchList,
  PositionList,
  RemovedEvent,
  SearchHit,
  Token,
  TokenProfile,
  TokenScore,
  WalletProfile,
  WalletScore,
} from "onchain-intel";

/**
 * The compact answers of the tools: the fields an agent reasons with, rounded, with a link to the
 * dashboard page. An agent's context is small; every field here earns its place.
 */

/** USD to the cent from a dollar up; four significant digits below (token prices). */
export const usd = (n: number | null): number | null =>
  n === null ? null : Math.abs(n) >= 1 ? Math.round(n * 100) / 100 : Number(n.toPrecision(4));
/** Percent to a tenth. */
export const pct = (n: number | null): number | null => (n === null ? null : Math.round(n * 10) / 10);
const round1 = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);

/** Pages of the dashboard an answer links to. */
export class Links {
  constructor(private readonly origin: string) {}
  token = (address: string) => `${this.origin}/tokens/${address}`;
  wallet = (address: string) => `${this.origin}/wallets/${address}`;
  alerts = () => `${this.origin}/alerts`;
  events = () => `${this.origin}/events`;
}

export function tokenRow(t: Token, links: Links) {
  return {
    address: t.address,
    symbol: t.symbol,
    name: t.name,
    age_hours: round1(t.age_hours),
    price_usd: usd(t.price_usd),
    change_1h_pct: pct(t.price_change_1h_pct),
    change_24h_pct: pct(t.price_change_24h_pct),
    liquidity_usd: usd(t.liquidity_usd),
    volume_24h_usd: usd(t.volume_24h_usd),
    market_cap_usd: usd(t.market_cap_usd),
    holders: t.holder_count,
    risk_score: t.risk_score,
    risk_flags: t.risk_flags,
    url: links.token(t.address),
  };
}

export function tokenProfile(t: TokenProfile, score: TokenScore, links: Links) {
  return {
    ...tokenRow(t, links),
    launchpad: t.launchpad,
    created_at: t.created_at,
    change_5m_pct: pct(t.price_change_5m_pct),
    volume_1h_usd: usd(t.volume_1h_usd),
    fdv_usd: usd(t.fdv_usd),
    txns_24h: t.txns_24h,
    makers_24h: t.makers_24h,
    summary: t.ai_summary,
    creator: t.creator.address ?? `unknown (${t.creator.unknown_reason})`,
    creator_holding: t.creator_holding && {
      holding_pct: pct(t.creator_holding.holding_pct),
      value_usd: usd(t.creator_holding.value_usd),
      sold: t.creator_holding.sold,
    },
    risk: riskBreakdown(score),
    top_holders: t.top_holders.slice(0, 5).map((h) => ({
      address: h.address,
      holding_pct: pct(h.holding_pct),
      classification: h.classification,
      net_activity: h.net_activity,
    })),
  };
}

function riskBreakdown(s: TokenScore) {
  return {
    score: s.risk_score,
    level: s.risk_level,
    confidence: s.confidence,
    dimensions: s.dimensions,
    flags: s.flag_evidence.map((e) => ({
      flag: e.flag,
      tripped: e.tripped,
      metrics: Object.fromEntries(Object.entries(e.metrics).map(([k, v]) => [k, Number(v.toPrecision(4))])),
      thresholds: e.thresholds,
      wallet_count: e.wallet_count,
      tx_count: e.tx_count,
      wallets: e.wallets.slice(0, 5),
      funder: e.funder,
    })),
    missing_dimensions: s.missing_dimensions,
  };
}

export function tokenScore(s: TokenScore, links: Links) {
  return {
    address: s.address,
    ...riskBreakdown(s),
    weights: s.weights,
    weighted_score: s.weighted_score,
    adjustments: s.adjustments,
    top_holder_summary: s.top_holder_summary,
    method_version: s.method_version,
    updated_at: s.updated_at,
    url: links.token(s.address),
  };
}

export function walletScore(s: WalletScore, links: Links) {
  return {
    address: s.address,
    reputation_score: s.reputation_score,
    confidence: s.confidence,
    classification: s.classification,
    dimensions: s.dimensions,
    weights: s.weights,
    weighted_score: s.weighted_score,
    adjustments: s.adjustments,
    missing_dimensions: s.missing_dimensions,
    closed_positions: s.closed_positions,
    trade_count: s.trade_count,
    method_version: s.method_version,
    updated_at: s.updated_at,
    url: links.wallet(s.address),
  };
}

export function holders(list: HolderList) {
  return {
    total: list.total,
    page: list.page,
    holders: list.data.map((h) => ({
      address: h.address,
      holding_pct: pct(h.holding_pct),
      classification: h.classification,
      reputation_score: h.reputation_score,
      net_activity: h.net_activity,
      tags: h.tags,
    })),
  };
}

export function searchHit(hit: SearchHit, links: Links) {
  return hit.type === "token"
    ? {
        type: hit.type,
        address: hit.address,
        symbol: hit.symbol,
        name: hit.name,
        price_usd: usd(hit.price_usd),
        liquidity_usd: usd(hit.liquidity_usd),
        volume_24h_usd: usd(hit.volume_24h_usd),
        url: links.token(hit.address),
      }
    : {
        type: hit.type,
        address: hit.address,
        classification: hit.classification,
        trade_count: hit.trade_count,
        last_seen: hit.last_seen,
        url: links.wallet(hit.address),
      };
}

export function walletProfile(w: WalletProfile, links: Links) {
  return {
    address: w.address,
    classification: w.classification,
    reputation_score: w.reputation_score,
    reputation_confidence: w.reputation_confidence,
    pnl_usd: usd(w.pnl_estimate_usd),
    pnl_confidence: w.pnl_confidence,
    sector_preference: w.sector_preference,
    trade_count: w.trade_count,
    first_seen: w.first_seen,
    portfolio: w.portfolio.slice(0, 10).map((h) => ({
      token_address: h.token_address,
      symbol: h.token_symbol,
      quantity: Number(h.quantity.toPrecision(6)),
      value_usd: usd(h.value_usd),
    })),
    portfolio_count: w.portfolio.length,
    launches: w.launches,
    url: links.wallet(w.address),
  };
}

export function positions(list: PositionList) {
  return {
    total: list.total,
    page: list.page,
    positions: list.data.map((p) => ({
      token_address: p.token_address,
      symbol: p.token_symbol,
      status: p.status,
      value_usd: usd(p.value_usd),
      cost_basis_usd: usd(p.cost_basis_usd),
      realized_pnl_usd: usd(p.realized_pnl_usd),
      unrealized_pnl_usd: usd(p.unrealized_pnl_usd),
      pnl_usd: usd(p.pnl_usd),
      buys: p.buy_count,
      sells: p.sell_count,
      last_trade_at: p.last_trade_at,
    })),
  };
}

export function launches(list: LaunchList, links: Links) {
  return {
    total: list.total,
    page: list.page,
    launches: list.data.map((l) => ({
      token_address: l.token_address,
      symbol: l.token_symbol,
      outcome: l.outcome,
      created_at: l.created_at,
      liquidity_usd: usd(l.liquidity_usd),
      market_cap_usd: usd(l.market_cap_usd),
      risk_flags: l.risk_flags,
      last_trade_at: l.last_trade_at,
      url: links.token(l.token_address),
    })),
  };
}

export function event(e: Event | RemovedEvent) {
  if ("removed" in e)
    return {
      id: e.id,
      removed: true,
      type: e.type,
      token_address: e.token_address,
      wallet: e.wallet_address,
      block: e.block_number,
    };
  return {
    id: e.id,
    type: e.type,
    direction: e.direction,
    symbol: e.token_symbol,
    token_address: e.token_address,
    wallet: e.wallet_address,
    ...(e.to_address ? { to: e.to_address } : {}),
    amount_usd: usd(e.amount_usd),
    time: e.timestamp,
    block: e.block_number,
    confirmed: e.confirmed,
  };
}

export function alert(a: Alert | CreatedAlert, links: Links) {
  return {
    id: a.id,
    name: a.name,
    status: a.status,
    conditions: a.conditions,
    channel: a.notification_channel,
    ...("last_triggered_at" in a ? { last_triggered_at: a.last_triggered_at } : {}),
    ...("webhook_secret" in a && a.webhook_secret ? { webhook_secret: a.webhook_secret } : {}),
    url: links.alerts(),
  };
}
