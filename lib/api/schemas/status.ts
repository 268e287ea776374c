import { z } from "zod";

export const status = z
  .object({
    chain_id: z.number().int().nullable(),
    head_block: z.number().int().nullable(),
    indexed_block: z.number().int().nullable(),
    indexed_block_time: z.string().nullable().optional(),
    lag_blocks: z.number().int().nullable(),
    lag_seconds: z.number().nullable(),
    worker: z.object({ alive: z.boolean(), heartbeat_at: z.string().nullable() }),
  })
  .meta({ id: "Status" });
