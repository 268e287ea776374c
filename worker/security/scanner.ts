/**
 * The security checks in the worker. After each cycle at the head, a pass takes the tokens whose
 * checks are due (never checked; their main pool changed, or its liquidity moved since; checked
 * above the indexed block, as after a reorg; or older than a staleness bound), oldest first and a
 * bounded batch at a time, reads the chain at the indexed block (no transaction open meanwhile),
 * then writes one row per token. A pass runs beside the indexer, never holding up its cycle; one
 * pass at a time. `worker/index.ts` schedules it with `afterCycle`.
 */
import type { Hex } from "viem";
import { type BulkRow, insertRows } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { tokenSecurity } from "@/db/schema";
import { log } from "@/lib/log";
import { bumpDataVersion } from "@/worker/indexer/checkpoint";
import { mapLimit, Rpc } from "@/worker/indexer/rpc";
import type { CycleContext } from "@/worker/worker";
import { ChainAt } from "./chain";
import { checkToken, type MainPool } from "./check-token";
import { findBalanceKey } from "./trade";

export type ScannerOptions = {
  rpcUrl: string;
  /** Tokens checked per pass (default 16). */
  batch?: number;
  /** Checks older than this many blocks are due again (default 300). */
  staleBlocks?: number;
  /** Each chain request's deadline (default 10 s): a slow token fails its check, it does not wait. */
  timeoutMs?: number;
  signal?: AbortSignal;
};

type Due = MainPool & { token: string };

export class SecurityScanner {
  private readonly rpc: Rpc;
  /** Each quote token's balance slot for the trade probe: found once, the code does not change. */
  private readonly balanceKeys = new Map<string, Hex | null>();
  private running: Promise<unknown> | null = null;

  constructor(private readonly opts: ScannerOptions) {
    this.rpc = new Rpc({ url: opts.rpcUrl, timeoutMs: opts.timeoutMs ?? 10_000, maxAttempts: 2, signal: opts.signal });
  }

  /** startWorker's afterCycle: starts a pass at the head unless one is running; never waits for it. */
  readonly afterCycle = async (
    ctx: Pick<CycleContext, "sql" | "profile" | "head" | "indexedBlock" | "indexedTime">,
  ) => {
    if (this.running || ctx.indexedBlock < ctx.head) return;
    this.running = this.pass(ctx)
      .catch((err) => log.error("security pass failed", { error: String(err) }))
      .finally(() => {
        this.running = null;
      });
  };

  /** Waits for the pass under way, if any. */
  idle = async () => void (await this.running);

  /** One pass: checks the due tokens at the indexed block and writes them; returns how many. */
  async pass(ctx: Pick<CycleContext, "sql" | "profile" | "indexedBlock" | "indexedTime">): Promise<number> {
    const due = await dueTokens(ctx.sql, ctx.indexedBlock, this.opts.staleBlocks ?? 300, this.opts.batch ?? 16);
    if (due.length === 0) return 0;
    const chain = new ChainAt(this.rpc, ctx.indexedBlock);
    const checkedAt = new Date(ctx.indexedTime * 1000);
    const rows = await mapLimit(due, 2, async (d) => {
      const positions =
        d.pool && d.protocol === "uniswap-v3"
          ? (
              await ctx.sql<{ tokenId: string; owner: string; liquidity: string }[]>`
                select token_id::text as "tokenId", owner, liquidity::text as liquidity
                  from lp_positions where pool_address = ${d.pool}`
            ).map((p) => ({ ...p, liquidity: BigInt(p.liquidity) }))
          : [];
      const balanceKey = d.quote ? await this.balanceKey(chain, d.quote) : null;
      const report = await checkToken(chain, d.token, d, { profile: ctx.profile, positions, balanceKey });
      return { tokenAddress: d.token, block: ctx.indexedBlock, checkedAt, pool: d.pool, report };
    });
    await write(ctx.sql, ctx.profile.chainId, rows);
    log.info("security checked", { tokens: rows.length, block: ctx.indexedBlock });
    return rows.length;
  }

  private async balanceKey(chain: ChainAt, quote: string): Promise<Hex | null> {
    if (!this.balanceKeys.has(quote)) {
      // A node that failed is asked again next pass; a layout not found stays not found (null).
      const key = await findBalanceKey(chain, quote).catch(() => "failed" as const);
      if (key === "failed") return null;
      this.balanceKeys.set(quote, key ?? null);
    }
    return this.balanceKeys.get(quote) ?? null;
  }
}

/** The rows in one transaction that also bumps data_version, so the API's caches drop the old checks. */
async function write(sql: Sql, chainId: number, rows: BulkRow<typeof tokenSecurity>[]) {
  await sql.begin(async (tx) => {
    await insertRows(tx, tokenSecurity, rows, { onConflict: { target: ["tokenAddress"], action: "update" } });
    await bumpDataVersion(tx, chainId);
  });
}

/**
 * The tokens due, oldest check first. A token's main pool: its deepest pool against a quote token
 * (chain_contracts), where a small trade can be simulated.
 */
function dueTokens(pg: Sql, block: number, staleBlocks: number, limit: number): Promise<Due[]> {
  return pg<Due[]>`
    select t.address as token, mp.address as pool, mp.protocol, mp.quote
      from tokens t
      left join token_security s on s.token_address = t.address
      left join lateral (
        select p.address, p.protocol, q.address as quote
          from pools p join chain_contracts q on q.role = 'quote_token'
                and q.address = case when p.token0 = t.address then p.token1 else p.token0 end
         where p.token0 = t.address or p.token1 = t.address
         order by p.liquidity_usd desc, p.address limit 1) mp on true
     where t.created_block <= ${block}
       and (s.token_address is null
        or s.block > ${block}
        or s.block < ${block - staleBlocks}
        or s.pool is distinct from mp.address
        or exists (select 1 from liquidity_changes lc where lc.token_address = t.address and lc.block_number > s.block)
        or exists (select 1 from position_events pe where pe.pool_address = s.pool and pe.block_number > s.block))
     order by s.block nulls first, t.created_block, t.address
     limit ${limit}`;
}
