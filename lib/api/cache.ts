import { processCache } from "@/lib/cache";
import { JsonBody } from "./json-body";

/**
 * Read-through cache of chain-derived responses, keyed by the data version of the database the
 * request reads (a replica's own): any write by the worker changes the version and empties the
 * cache, so a cached answer is never staler than the database it came from, and an older
 * version (a lagging replica's) reads through. Entries also expire after a second, since answers
 * carry time-relative fields (age_hours). Bodies are kept serialised and UTF-8 encoded, so a hit
 * costs neither JSON.stringify nor encoding of a long list, and the bytes live outside the
 * JavaScript heap, where the garbage collector does not copy them.
 */
const responses = processCache<string, Promise<JsonBody>>({
  name: "responses",
  max: 64 * 1024 * 1024,
  weight: (body) => body.bytes.length,
  ttlMs: 1_000,
});

/** Whether `key` has an answer of the last data version seen, fresh or on its way. */
export const isCached = (key: string): boolean => responses.has(key);

/** The body `load` resolves to, encoded (unless it already is); a load that throws (a 404, a 500) is not kept. */
export const cached = (dataVersion: number, key: string, load: () => Promise<unknown>): Promise<JsonBody> =>
  responses.at(dataVersion).load(key, async () => {
    const body = await load();
    return body instanceof JsonBody ? body : JsonBody.of(body);
  });
