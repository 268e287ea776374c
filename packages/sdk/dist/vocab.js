import * as generated from "./generated/api.js";
export const RISK_FLAGS = generated.tokenRisk_flagsValues;
export const TOKEN_SORTS = generated.pathsTokensGetParametersQuerySortValues;
export const EVENT_TYPES = generated.eventTypeValues;
export const CANDLE_INTERVALS = generated.pathsTokensAddressOhlcvGetParametersQueryIntervalValues;
export const CLASSIFICATIONS = generated.walletProfileClassificationValues;
export const POSITION_STATUSES = generated.pathsWalletsAddressPositionsGetParametersQueryStatusValues;
export const ALERT_LIST_STATUSES = generated.pathsAlertsGetParametersQueryStatusValues;
