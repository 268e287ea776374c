import type { AlertListQuery, Event, OhlcvQuery, PositionListQuery, RiskFlag, TokenListQuery, WalletProfile } from "./types.ts";
/** The API's vocabularies as values (for pickers and validation), taken from the generated document. */
type NonEmpty<T> = readonly [T, ...T[]];
export declare const RISK_FLAGS: NonEmpty<RiskFlag>;
export declare const TOKEN_SORTS: NonEmpty<NonNullable<TokenListQuery["sort"]>>;
export declare const EVENT_TYPES: NonEmpty<Event["type"]>;
export declare const CANDLE_INTERVALS: NonEmpty<NonNullable<OhlcvQuery["interval"]>>;
export declare const CLASSIFICATIONS: NonEmpty<WalletProfile["classification"]>;
export declare const POSITION_STATUSES: NonEmpty<NonNullable<PositionListQuery["status"]>>;
export declare const ALERT_LIST_STATUSES: NonEmpty<NonNullable<AlertListQuery["status"]>>;
export {};
