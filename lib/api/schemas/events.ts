import { z } from "zod";
import { CLASSIFICATIONS, DIRECTIONS, EVENT_TYPES } from "@/lib/domain/vocab";
import { END_REASONS } from "../stream/client";
import {
  addressSchema,
  cursorListEnvelope,
  cursorParam,
  intParam,
  listEnvelope,
  paginationQuery,
  timeParam,
  timestampSchema,
} from "./common";

const typeParam = z.enum(EVENT_TYPES).optional().meta({ description: "Event type" });
const afterParam = (description: string) => intParam(0, Number.MAX_SAFE_INTEGER, description).optional();

const classificationText = "smart_money, sniper, bot, insider, whale, wash_trader, fresh or retail";

export const eventListQuery = z
  .object({
    type: typeParam,
    token_address: addressSchema.optional(),
    wallet_address: addressSchema.optional(),
    pool_address: addressSchema
      .optional()
      .meta({ description: "Only swaps and liquidity changes in this pool; with token_address or wallet_address" }),
    direction: z.enum(DIRECTIONS).optional().meta({
      description: "Only swaps on this side (buy or sell, the trader's); with token_address or wallet_address",
    }),
    wallet_classification: z
      .enum(CLASSIFICATIONS)
      .optional()
      .meta({
        description:
          `Only events of wallets of this behavioural class now (${classificationText}); with ` +
          "token_address or wallet_address",
      }),
    since: timeParam("Only events after this time (exclusive), ISO 8601").optional(),
    after: afterParam("Only events with an id greater than this (resume cursor)"),
    order: z.enum(["desc", "asc"]).default("desc").meta({ description: "By chain position; newest first by default" }),
    include_removed: z
      .enum(["true", "false"], { error: "must be true or false" })
      .transform((v) => v === "true")
      .optional()
      .meta({
        description:
          "Also list tombstones ({ id, removed: true, ... }) of events a reorg removed, merged in id order: " +
          "a consumer paging with after= applies them to converge to the canonical stream (see the event stream guide)",
      }),
    ...paginationQuery,
  })
  .superRefine((q, ctx) => {
    // Over the whole stream these would count every event: they narrow one token's or one wallet's.
    for (const name of ["pool_address", "direction", "wallet_classification"] as const) {
      if (q[name] !== undefined && !q.token_address && !q.wallet_address)
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: "filters one token's or one wallet's events: add token_address or wallet_address",
        });
    }
  });

/** GET /v1/events/stream: the list's filters, and where to resume. */
export const eventStreamQuery = z.object({
  type: typeParam,
  token_address: addressSchema.optional(),
  wallet_address: addressSchema.optional(),
  after: afterParam(
    "Resume after this id: the `id:` of the last message received (a Last-Event-ID header takes precedence). " +
      "Without either, the stream starts at the indexed head",
  ),
});

/** The Last-Event-ID header, as the `after` parameter reads it. */
export const lastEventIdHeader = afterParam(
  "The `id:` of the last message received, as EventSource sends it on reconnecting",
);

export const walletEventListQuery = z.object({ type: typeParam, ...paginationQuery, cursor: cursorParam });

const eventFields = {
  id: z.string().meta({ description: "Opaque, monotonic in chain order; use with after=" }),
  type: z.enum(EVENT_TYPES).meta({ description: "Event type: swap, liquidity_add, liquidity_remove or transfer" }),
  to_address: z.string().optional().meta({ description: "Receiver, on transfers" }),
  token_address: z.string().meta({ description: "Token contract address" }),
  token_symbol: z.string().meta({ description: "Token symbol" }),
  amount_usd: z.number().meta({ description: "Value of the event in USD at the time" }),
  pool_address: z.string().nullable().meta({ description: "Pool of a swap or liquidity change; null on transfers" }),
  token_amount: z.number().meta({ description: "Tokens moved, in whole units (the token's decimals applied)" }),
  quote_amount: z
    .number()
    .nullable()
    .meta({
      description:
        "The pool's quote token (WETH, a stablecoin) a swap paid or received, or a liquidity change moved, " +
        "in whole units; " +
        "null on transfers, and on events indexed before it was kept",
    }),
  quote_symbol: z.string().nullable().meta({ description: "Symbol of that quote token; null on transfers" }),
  price_usd: z
    .number()
    .nullable()
    .meta({
      description:
        "The token's USD price right after the event (the token's price_usd rule: 0 while no pool held the minimum " +
        "liquidity); null on transfers",
    }),
  direction: z
    .enum(DIRECTIONS)
    .nullable()
    .meta({ description: "buy or sell for swaps (the trader's side); null for liquidity events and transfers" }),
  timestamp: timestampSchema,
  block_number: z.number().int().meta({ description: "Block of the event" }),
  tx_hash: z.string().meta({ description: "Transaction hash" }),
  confirmed: z.boolean().meta({
    description:
      "At or below the indexed head minus the chain's finality depth: no reorg will remove it. Newer events may " +
      "still be removed (see include_removed)",
  }),
};

export const event = z
  .object({
    ...eventFields,
    wallet_address: z
      .string()
      .meta({ description: "Wallet that caused the event (the transaction's sender; a transfer's sender)" }),
    wallet_classification: z.enum(CLASSIFICATIONS).meta({
      description: `Behavioural class of wallet_address now, as its wallet profile gives it: ${classificationText}`,
    }),
  })
  .meta({ id: "Event" });
export const walletEvent = z.object(eventFields).meta({ id: "WalletEvent" });
/** With include_removed=true: an event a reorg removed. Its id is never used again. */
export const removedEvent = z
  .object({
    id: z.string().meta({ description: "The removed event's id" }),
    removed: z.literal(true).meta({ description: "Always true: the event was removed by a reorg" }),
    type: z.enum(EVENT_TYPES).meta({ description: "Event type: swap, liquidity_add, liquidity_remove or transfer" }),
    wallet_address: z
      .string()
      .meta({ description: "Wallet that caused the event (the transaction's sender; a transfer's sender)" }),
    to_address: z.string().optional().meta({ description: "Receiver, on transfers" }),
    token_address: z.string().meta({ description: "Token contract address" }),
    timestamp: timestampSchema,
    block_number: z.number().int().meta({ description: "Block of the event" }),
    tx_hash: z.string().meta({ description: "Transaction hash" }),
  })
  .meta({ id: "RemovedEvent" });
export const eventList = listEnvelope(z.union([event, removedEvent]), "EventList");
export const walletEventList = cursorListEnvelope(walletEvent, "WalletEventList");

/** The data of a stream's `head` message. */
export const streamHead = z
  .object({
    indexed_block: z.number().int().meta({ description: "The last block indexed" }),
    confirmed_block: z
      .number()
      .int()
      .meta({
        description:
          "The last confirmed block (the indexed one less the chain's finality depth; -1: none yet): events at or " +
          "below it are final",
      }),
  })
  .meta({ id: "StreamHead", description: "The data of an `event: head` message" });

/** The data of a stream's last message, when the server ends it. */
export const streamEnd = z
  .object({
    reason: z.enum(Object.keys(END_REASONS) as [keyof typeof END_REASONS]).meta({
      description: Object.entries(END_REASONS)
        .map(([reason, text]) => `${reason}: ${text}`)
        .join(" "),
    }),
    message: z.string().meta({ description: "What happened, for a person" }),
  })
  .meta({ id: "StreamEnd", description: "The data of an `event: end` message, the last of a stream the server ends" });
