export { type ClientOptions, OnchainIntel, serializeQuery } from "./client.js";
export { type ErrorCode, OnchainIntelConnectionError, OnchainIntelError, OnchainIntelTimeoutError } from "./errors.js";
export type { components, paths } from "./generated/api.js";
export { type ListPage, PageIterator } from "./pagination.js";
export type { StreamHead, StreamItem, StreamOptions } from "./stream.js";
export type { CallOptions, RetryEvent, Sleep } from "./transport.js";
export type * from "./types.js";
export * from "./vocab.js";
