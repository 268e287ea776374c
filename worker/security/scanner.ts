/**
 * The security checks in the worker. After each cycle at the head, a pass takes the tokens whose
 * checks are due (never checked; their main pool changed, or its liquidity moved since; checked
 * above the indexed block, as after a reorg; or older than a staleness bound), oldest first and a
 * bounded batch at a time, reads the chain at the indexed block (no transaction open meanwhile),
 * then writes one row per token. A pass runs beside the indexer, never holding up its cycle; one
 * pass at a time. `worker/index.ts` schedules it with `afterCycle`.
 */
import type { Hex } from "viem";
import { type BulkRow, insertRows, names, PREPARED, tableName } from "@/db/bulk";
import type { Sql } from "@/db/client";
import {
  chainContracts,
  liquidityChanges,
  lpPositions,
  pools,
  positionEvents,
  tokenSecurity,
  tokens,
} from "@/db/schema";
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
              await ctx.sql.unsafe<Pick<typeof lpPositions.$inferSelect, "tokenId" | "owner" | "liquidity">[]>(
                POSITIONS,
                [d.pool],
                PREPARED,
              )
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

const lp = names(lpPositions);
/** The V3 positions in pool $1. */
const POSITIONS = `select ${lp.tokenId}::text as "tokenId", ${lp.owner} as owner, ${lp.liquidity}::text as liquidity
  from ${tableName(lpPositions)} where ${lp.poolAddress} = $1`;

/** The rows in one transaction that also bumps data_version, so the API's caches drop the old checks. */
async function write(sql: Sql, chainId: number, rows: BulkRow<typeof tokenSecurity>[]) {
  await sql.begin(async (tx) => {
    await insertRows(tx, tokenSecurity, rows, { onConflict: { target: ["tokenAddress"], action: "update" } });
    await bumpDataVersion(tx, chainId);
  });
}

const [tk, ts, pl, cc] = [names(tokens), names(tokenSecurity), names(pools), names(chainContracts)];
const [lc, pe] = [names(liquidityChanges), names(positionEvents)];
/** The tokens due at block $1 (checks older than $2 are stale), at most $3. */
const DUE = `
  select t.${tk.address} as token, mp.address as pool, mp.protocol, mp.quote
    from ${tableName(tokens)} t
    left join ${tableName(tokenSecurity)} s on s.${ts.tokenAddress} = t.${tk.address}
    left join lateral (
      select p.${pl.address} as address, p.${pl.protocol} as protocol, q.${cc.address} as quote
        from ${tableName(pools)} p join ${tableName(chainContracts)} q on q.${cc.role} = 'quote_token'
              and q.${cc.address} = case when p.${pl.token0} = t.${tk.address} then p.${pl.token1}
                                         else p.${pl.token0} end
       where p.${pl.token0} = t.${tk.address} or p.${pl.token1} = t.${tk.address}
       order by p.${pl.liquidityUsd} desc, p.${pl.address} limit 1) mp on true
   where t.${tk.createdBlock} <= $1
     and (s.${ts.tokenAddress} is null
      or s.${ts.block} > $1
      or s.${ts.block} < $2
      or s.${ts.pool} is distinct from mp.address
      or exists (select 1 from ${tableName(liquidityChanges)} lc
                  where lc.${lc.tokenAddress} = t.${tk.address} and lc.${lc.blockNumber} > s.${ts.block})
      or exists (select 1 from ${tableName(positionEvents)} pe
                  where pe.${pe.poolAddress} = s.${ts.pool} and pe.${pe.blockNumber} > s.${ts.block}))
   order by s.${ts.block} nulls first, t.${tk.createdBlock}, t.${tk.address}
   limit $3`;

/**
 * The tokens due, oldest check first. A token's main pool: its deepest pool against a quote token
 * (chain_contracts), where a small trade can be simulated.
 */
function dueTokens(pg: Sql, block: number, staleBlocks: number, limit: number): Promise<Due[]> {
  return pg.unsafe<Due[]>(DUE, [block, block - staleBlocks, limit], PREPARED);
}
