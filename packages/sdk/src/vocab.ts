import * as generated from "./generated/api.ts";
import type {
  AlertListQuery,
  Event,
  OhlcvQuery,
  PositionListQuery,
  RiskFlag,
  TokenListQuery,
  WalletProfile,
} from "./types.ts";

/** The API's vocabularies as values (for pickers and validation), taken from the generated document. */
type NonEmpty<T> = readonly [T, ...T[]];

export const RISK_FLAGS = generated.tokenRisk_flagsValues as NonEmpty<RiskFlag>;
export const TOKEN_SORTS = generated.pathsTokensGetParametersQuerySortValues as NonEmpty<
  NonNullable<TokenListQuery["sort"]>
>;
export const EVENT_TYPES = generated.eventTypeValues as NonEmpty<Event["type"]>;
export const CANDLE_INTERVALS = generated.pathsTokensAddressOhlcvGetParametersQueryIntervalValues as NonEmpty<
  NonNullable<OhlcvQuery["interval"]>
>;
export const CLASSIFICATIONS = generated.walletProfileClassificationValues as NonEmpty<WalletProfile["classification"]>;
export const POSITION_STATUSES = generated.pathsWalletsAddressPositionsGetParametersQueryStatusValues as NonEmpty<
  NonNullable<PositionListQuery["status"]>
>;
export const ALERT_LIST_STATUSES = generated.pathsAlertsGetParametersQueryStatusValues as NonEmpty<
  NonNullable<AlertListQuery["status"]>
>;
