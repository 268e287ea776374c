import { get, type PathItem } from "@/lib/api/openapi";
import { EVENT_NUMBERS } from "@/lib/api/operation-numbers";
import { eventList, eventListQuery } from "@/lib/api/schemas/events";

export const operations: PathItem = {
  get: get({
    summary: "Global event stream",
    description: `${EVENT_NUMBERS} Ids increase in chain order.`,
    response: eventList,
    params: { query: eventListQuery },
  }),
};
