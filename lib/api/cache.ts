/**
 * Read-through cache of chain-derived responses, keyed by the data version that the auth
 * round trip returns: any write by the worker changes the version and empties the cache, so a
 * cached answer is never staler than the database. Entries also expire after a second, since
 * answers carry time-relative fields (age_hours). Bodies are kept serialised, so a hit costs
 * no JSON.stringify of a long list.
 */
const MAX_ENTRIES = 2_000;
const TTL_MS = 1_000;
let version = -1;
const entries = new Map<string, { at: number; value: Promise<JsonText> }>();

/** A response body serialised once; the route wrapper sends it as is. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** The body `load` resolves to, serialised; a load that throws (a 404, a 500) is not kept. */
export function cached(dataVersion: number, key: string, load: () => Promise<unknown>): Promise<JsonText> {
  if (dataVersion !== version) {
    entries.clear();
    version = dataVersion;
  }
  const now = Date.now();
  const hit = entries.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.value;
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  const value = load().then((body) => new JsonText(JSON.stringify(body)));
  const entry = { at: now, value };
  entries.set(key, entry);
  value.catch(() => entries.get(key) === entry && entries.delete(key));
  return value;
}
