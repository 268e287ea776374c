import type { components, paths } from "./generated/api.ts";

/** Names for the API's schemas; every type comes from the generated `components` and `paths`. */
type Schemas = components["schemas"];

export type Token = Schemas["Token"];
export type TokenList = Schemas["TokenList"];
export type TokenProfile = Schemas["TokenProfile"];
export type Holder = Schemas["HolderItem"];
export type HolderList = Schemas["HolderList"];
export type Candle = Schemas["Candle"];
export type CandleList = Schemas["CandleList"];
export type Pool = Schemas["Pool"];
export type PoolList = Schemas["PoolList"];
export type TokenSecurity = Schemas["TokenSecurity"];
export type SearchHit = Schemas["SearchHit"];
export type SearchResults = Schemas["SearchResults"];
export type WalletProfile = Schemas["WalletProfile"];
export type Position = Schemas["Position"];
export type PositionList = Schemas["PositionList"];
export type TokenCreator = Schemas["TokenCreator"];
export type CreatorHolding = Schemas["CreatorHolding"];
export type LaunchSummary = Schemas["LaunchSummary"];
export type Launch = Schemas["Launch"];
export type LaunchList = Schemas["LaunchList"];
export type WalletEvent = Schemas["WalletEvent"];
export type WalletEventList = Schemas["WalletEventList"];
export type Event = Schemas["Event"];
export type RemovedEvent = Schemas["RemovedEvent"];
export type EventList = Schemas["EventList"];
export type TokenScore = Schemas["TokenScore"];
export type WalletScore = Schemas["WalletScore"];
export type Alert = Schemas["Alert"];
export type AlertList = Schemas["AlertList"];
export type AlertDetail = Schemas["AlertDetail"];
export type CreatedAlert = Schemas["CreatedAlert"];
export type CreateAlert = Schemas["CreateAlert"];
export type UpdateAlert = Schemas["UpdateAlert"];
export type AlertConditions = Schemas["AlertConditions"];
export type Status = Schemas["Status"];
export type RiskFlag = Token["risk_flags"][number];

/** Parameters the API takes as comma-separated lists; the SDK also takes arrays for them. */
type CommaList = "addresses" | "exclude_flags";

/**
 * A query as the SDK takes it: the generated query type (every value a string on the wire), with
 * numbers for plain string values and arrays for comma-separated lists.
 */
type Loose<Q> = {
  [K in keyof Q]?: K extends CommaList
    ? NonNullable<Q[K]> | readonly string[]
    : string extends NonNullable<Q[K]>
      ? NonNullable<Q[K]> | number
      : NonNullable<Q[K]>;
};

type Query<P extends keyof paths, M extends "get"> = paths[P][M] extends { parameters: { query?: infer Q } }
  ? Loose<NonNullable<Q>>
  : never;

export type TokenListQuery = Omit<Query<"/tokens", "get">, "exclude_flags"> & {
  exclude_flags?: string | readonly RiskFlag[];
};
export type OhlcvQuery = Query<"/tokens/{address}/ohlcv", "get">;
export type HolderListQuery = Query<"/tokens/{address}/holders", "get">;
export type PoolListQuery = Query<"/tokens/{address}/pools", "get">;
export type SearchQuery = Query<"/search", "get">;
export type PositionListQuery = Query<"/wallets/{address}/positions", "get">;
export type LaunchListQuery = Query<"/wallets/{address}/launches", "get">;
export type WalletEventListQuery = Query<"/wallets/{address}/events", "get">;
export type EventListQuery = Query<"/events", "get">;
export type AlertListQuery = Query<"/alerts", "get">;
