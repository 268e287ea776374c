const encoder = new TextEncoder();

/**
 * A response body encoded once; the route wrapper sends it as is. A body PostgreSQL serialised
 * (an event list) is sent without being parsed and serialised again.
 */
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
