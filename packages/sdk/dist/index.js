export { OnchainIntel, serializeQuery } from "./client.js";
export { OnchainIntelConnectionError, OnchainIntelError, OnchainIntelTimeoutError } from "./errors.js";
export { PageIterator } from "./pagination.js";
export * from "./vocab.js";
