import { z } from "zod";
import { errorBodySchema } from "@/lib/api/errors";
import { json, type PathItem, responses } from "@/lib/api/openapi";
import { eventStreamQuery, lastEventIdHeader } from "@/lib/api/schemas/events";

const STREAM_EXAMPLE = `retry: 2000

id: 1234500007
data: ${JSON.stringify({
  id: "1234500007",
  type: "swap",
  wallet_address: "0x…",
  token_address: "0x…",
  token_symbol: "PEPE",
  amount_usd: 125.5,
  direction: "buy",
  timestamp: "2026-01-05T12:34:56.000Z",
  block_number: 12345,
  tx_hash: "0x…",
  confirmed: false,
})}

event: head
id: 1234500007
data: {"indexed_block":12345,"confirmed_block":12313}

event: removed
id: 1234500007
data: ${JSON.stringify({
  id: "1234500007",
  removed: true,
  type: "swap",
  wallet_address: "0x…",
  token_address: "0x…",
  timestamp: "2026-01-05T12:34:56.000Z",
  block_number: 12345,
  tx_hash: "0x…",
})}

: keep-alive
`;

/** Server-Sent Events, so its 200 is text/event-stream, described message by message. */
export const operations: PathItem = {
  get: {
    summary: "The event stream, pushed as it is indexed (Server-Sent Events)",
    description: [
      "The events of `GET /events` as blocks are indexed, with its filters, as `text/event-stream` (see the event",
      "stream guide). Messages: an event (the default message type): `id:` its id, `data:` the Event as `/events`",
      "lists it; `event: removed`: a tombstone, an event a reorg removed that the stream had sent: `id:` its id,",
      "`data:` the RemovedEvent; `event: head` after each indexed block: `data:` a StreamHead (what became final:",
      "events at or below `confirmed_block`), `id:` the position a reconnect resumes from; `event: end`: the server",
      "ends the stream, `data:` a StreamEnd; a comment when idle. Resume with the last `id:` received as the",
      "Last-Event-ID header (EventSource sends it) or `after=`: no event is missed or repeated, across reconnects,",
      "server restarts and reorgs. Without either the stream starts at the indexed head. Concurrent streams per key",
      "are capped by plan (none on Free: 403; past the cap: 429). Opening counts one request, and each further minute",
      "open one more; a revoked key's streams end within seconds; a client more than 1 MiB behind is ended",
      "(slow_client).",
    ].join(" "),
    requestParams: { query: eventStreamQuery, header: z.object({ "Last-Event-ID": lastEventIdHeader }) },
    responses: {
      ...responses(
        {
          200: {
            description: "The stream: messages as blocks are indexed, until the client closes it or the server ends it",
            content: {
              "text/event-stream": {
                schema: z.string().meta({ description: "Server-Sent Events" }),
                example: STREAM_EXAMPLE,
              },
            },
          },
        },
        [403],
      ),
      429: json(
        errorBodySchema,
        "RATE_LIMITED: per-minute or per-day limit exceeded (see Retry-After), " +
          "or the key has as many streams open as its plan allows",
      ),
    },
  },
};
