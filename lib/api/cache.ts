/**
 * Read-through cache of chain-derived responses, keyed by the data version that the auth
 * round trip returns: any write by the worker changes the version and empties the cache, so a
 * cached answer is never staler than the database. Entries also expire after a second, since
 * answers carry time-relative fields (age_hours). Bodies are kept serialised and UTF-8 encoded,
 * so a hit costs neither JSON.stringify nor encoding of a long list, and the bytes live outside
 * the JavaScript heap, where the garbage collector does not copy them.
 */
const TTL_MS = 1_000;
const MAX_BYTES = 64 * 1024 * 1024;
let version = -1;
let bytes = 0;
/** Insertion order is age order: every set deletes the key first. */
const entries = new Map<string, { at: number; value: Promise<JsonBody>; size: number }>();

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

const isFresh = <E extends { at: number }>(e: E | undefined, now: number): e is E =>
  e !== undefined && now - e.at < TTL_MS;

function drop(key: string) {
  bytes -= entries.get(key)?.size ?? 0;
  entries.delete(key);
}

/** Drops expired entries (the oldest first), then the oldest until `room` more bytes fit. */
function evict(now: number, room: number) {
  for (const [key, e] of entries) {
    if (isFresh(e, now) && bytes + room <= MAX_BYTES) break;
    drop(key);
  }
}

/** Whether `key` has an answer of the last data version seen, fresh or on its way. */
export function isCached(key: string): boolean {
  return isFresh(entries.get(key), Date.now());
}

/** The body `load` resolves to, encoded (unless it already is); a load that throws (a 404, a 500) is not kept. */
export function cached(dataVersion: number, key: string, load: () => Promise<unknown>): Promise<JsonBody> {
  const encoded = () => load().then((body) => (body instanceof JsonBody ? body : JsonBody.of(body)));
  // A version older than the last seen (a replica behind another, db/read-replicas.ts): read, not kept.
  if (dataVersion < version) return encoded();
  if (dataVersion !== version) {
    entries.clear();
    bytes = 0;
    version = dataVersion;
  }
  const now = Date.now();
  const hit = entries.get(key);
  if (isFresh(hit, now)) return hit.value;
  drop(key);
  const value = encoded();
  const entry = { at: now, value, size: 0 };
  entries.set(key, entry);
  value.then(
    (body) => {
      if (entries.get(key) !== entry) return;
      evict(Date.now(), body.bytes.length);
      entry.size = body.bytes.length;
      bytes += entry.size;
    },
    () => entries.get(key) === entry && entries.delete(key),
  );
  return value;
}
