export { type ClientOptions, OnchainIntel, serializeQuery } from "./client.ts";
export { type ErrorCode, OnchainIntelConnectionError, OnchainIntelError, OnchainIntelTimeoutError } from "./errors.ts";
export type { components, paths } from "./generated/api.ts";
export { type ListPage, PageIterator } from "./pagination.ts";
export type { StreamHead, StreamItem, StreamOptions } from "./stream.ts";
export type { CallOptions, RetryEvent, Sleep } from "./transport.ts";
export type * from "./types.ts";
export * from "./vocab.ts";
