import { z } from "zod";
import { EVENT_TYPES } from "@/lib/queries/events";
import { addressSchema, intParam, listEnvelope, paginationQuery, timestampSchema } from "./common";

const typeParam = z.enum(EVENT_TYPES).optional().meta({ description: "Event type" });

export const eventListQuery = z.object({
  type: typeParam,
  token_address: addressSchema.optional(),
  wallet_address: addressSchema.optional(),
  since: z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: "must be an ISO 8601 timestamp" })
    .transform((s) => new Date(s))
    .optional()
    .meta({ description: "Only events after this time (exclusive), ISO 8601", format: "date-time" }),
  after: intParam(0, Number.MAX_SAFE_INTEGER, "Only events with an id greater than this (resume cursor)").optional(),
  order: z.enum(["desc", "asc"]).default("desc").meta({ description: "By chain position; newest first by default" }),
  ...paginationQuery,
});

export const walletEventListQuery = z.object({ type: typeParam, ...paginationQuery });

const eventFields = {
  id: z.string().meta({ description: "Opaque, monotonic in chain order; use with after=" }),
  type: z.enum(EVENT_TYPES),
  to_address: z.string().optional().meta({ description: "Receiver, on transfers" }),
  token_address: z.string(),
  token_symbol: z.string(),
  amount_usd: z.number(),
  direction: z.enum(["buy", "sell"]).nullable(),
  timestamp: timestampSchema,
  block_number: z.number().int(),
  tx_hash: z.string(),
};

export const event = z.object({ ...eventFields, wallet_address: z.string() }).meta({ id: "Event" });
export const walletEvent = z.object(eventFields).meta({ id: "WalletEvent" });
export const eventList = listEnvelope(event, "EventList");
export const walletEventList = listEnvelope(walletEvent, "WalletEventList");
