import type { Db } from "@/db/client";
import { pickTokenFilter } from "@/lib/domain/token-filter";
import { type EventQuery, listEvents, listEventsJson } from "@/lib/queries/events";
import { getTokens, listTokens } from "@/lib/queries/tokens";
import { invalidParam } from "./errors";
import { parseQuery } from "./params";
import { eventListQuery } from "./schemas/events";
import { tokenListQuery } from "./schemas/tokens";

/**
 * The token and event lists addressed by the query strings of GET /v1/tokens and /v1/events,
 * shared by the API and the dashboard, so a page's URL, its JSON route and the public API mean
 * the same thing. Invalid parameters throw the API's INVALID_PARAMS error.
 */
export async function tokenListFromSearch(db: Db, search: URLSearchParams, now: Date, dataVersion?: number) {
  const q = parseQuery(urlOf(search), tokenListQuery);
  if (q.addresses) {
    // A batch names its tokens: a filter, a sort or a page would only drop some of them.
    const other = [...search.keys()].find((name) => name !== "addresses");
    if (other)
      throw invalidParam(
        other,
        `${other} cannot be combined with addresses (a batch lookup returns the tokens asked for, in their order).`,
      );
    const data = await getTokens(db, q.addresses, now, dataVersion);
    return { data, total: data.length, page: 1, limit: q.addresses.length, next_cursor: null };
  }
  const list = await listTokens(
    db,
    { filter: pickTokenFilter(q), sort: q.sort, page: q.page, limit: q.limit, cursor: q.cursor },
    now,
    dataVersion,
  );
  return { data: list.data, total: list.total, page: list.page, limit: q.limit, next_cursor: list.next_cursor };
}

function eventQueryFromSearch(search: URLSearchParams): EventQuery {
  const q = parseQuery(urlOf(search), eventListQuery);
  return {
    type: q.type,
    token: q.token_address,
    wallet: q.wallet_address,
    pool: q.pool_address,
    direction: q.direction,
    walletClass: q.wallet_classification,
    since: q.since,
    afterId: q.after,
    includeRemoved: q.include_removed,
    order: q.order,
    page: q.page,
    limit: q.limit,
  };
}

export async function eventListFromSearch(db: Db, search: URLSearchParams) {
  const q = eventQueryFromSearch(search);
  return { ...(await listEvents(db, q)), page: q.page, limit: q.limit };
}

/** The event list envelope as JSON text around a page PostgreSQL serialised (the API's read). */
export async function eventListJson(db: Db, q: EventQuery): Promise<string> {
  const { json, total } = await listEventsJson(db, q);
  return `{"data":${json},"total":${total},"page":${q.page},"limit":${q.limit}}`;
}

export const eventListJsonFromSearch = (db: Db, search: URLSearchParams) =>
  eventListJson(db, eventQueryFromSearch(search));

const urlOf = (search: URLSearchParams) => new URL(`http://dashboard/?${search}`);
