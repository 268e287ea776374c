import { processCache } from "@/lib/cache";

/**
 * Read-through cache of chain-derived responses, keyed by the data version that the auth
 * round trip returns: any write by the worker changes the version and empties the cache, so a
 * cached answer is never staler than the database. Entries also expire after a second, since
 * answers carry time-relative fields (age_hours). Bodies are kept serialised and UTF-8 encoded,
 * so a hit costs neither JSON.stringify nor encoding of a long list, and the bytes live outside
 * the JavaScript heap, where the garbage collector does not copy them.
 */
const responses = processCache<string, Promise<JsonBody>>({
  name: "responses",
  max: 64 * 1024 * 1024,
  weight: (body) => body.bytes.length,
  ttlMs: 1_000,
});

const encoder = new TextEncoder();

/** A response body encoded once; the route wrapper sends it as is. */
export class JsonBody {
  private constructor(readonly bytes: Uint8Array<ArrayBuffer>) {}
  static of(body: unknown) {
    return new JsonBody(encoder.encode(JSON.stringify(body)));
  }
  /** A body already serialised (by PostgreSQL, say). */
  static fromText(json: string) {
    return new JsonBody(encoder.encode(json));
  }
}

/** Whether `key` has an answer of the last data version seen, fresh or on its way. */
export const isCached = (key: string): boolean => responses.has(key);

/** The body `load` resolves to, encoded (unless it already is); a load that throws (a 404, a 500) is not kept. */
export const cached = (dataVersion: number, key: string, load: () => Promise<unknown>): Promise<JsonBody> =>
  responses.at(dataVersion).load(key, async () => {
    const body = await load();
    return body instanceof JsonBody ? body : JsonBody.of(body);
  });
