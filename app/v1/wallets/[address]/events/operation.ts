import { addressPath, get, type PathItem } from "@/lib/api/openapi";
import { EVENT_NUMBERS } from "@/lib/api/operation-numbers";
import { walletEventList, walletEventListQuery } from "@/lib/api/schemas/events";

export const operations: PathItem = {
  get: get({
    summary: "A wallet's events",
    description: EVENT_NUMBERS,
    response: walletEventList,
    params: { path: addressPath, query: walletEventListQuery },
    errors: [404],
  }),
};
