import type { Sql } from "@/db/client";
import { deriveRange } from "../derive";
import { StoredBalances } from "../derive/balances";
import { quoteTokenFundings } from "../derive/funding";
import type { Held } from "../derive/held";
import { applyReconcile, markTokens, planReconcile } from "../derive/reconcile";
import type { ChainProfile } from "../profiles";
import { CallsAtBlock } from "./calls-at-block";
import { type BlockRef, writeCheckpoint } from "./checkpoint";
import { recordQuarantines, writeIsolating } from "./quarantine";
import type { Quarantine, RangeData } from "./range";
import type { Rpc } from "./rpc";
import type { ChainState } from "./state";
import { type RangeRows, transformRange } from "./transform";
import { insertQuotePayments, insertRangeFacts } from "./write";

/** Thrown to roll back a trial write of a range (quarantine.ts traces a failure to one token with them). */
const DRY_RUN = Symbol("dry run");

/** A committed range: its rows, and the quarantines it recorded anew. */
export type WrittenRange = { rows: RangeRows; quarantined: Quarantine[] };

/**
 * Writes a fetched range to `ref` in stages that point one way: the chain's answers to its balance
 * checks (derive/reconcile.ts: planned from the database, asked once per range and outside any
 * transaction), the transform (pure), then one transaction without chain I/O that writes the
 * range's facts, derives what they change and moves the checkpoint. A failure that belongs to one
 * entity quarantines it and the range is written again without it (quarantine.ts); each attempt
 * starts from the reserves the state had before the range. `held`: see deriveRange.
 */
export async function writeRange(
  sql: Sql,
  rpc: Rpc,
  state: ChainState,
  profile: ChainProfile,
  data: RangeData,
  ref: BlockRef,
  held: Held | null = null,
): Promise<WrittenRange> {
  // A range fetched ahead of the last commit discovered into a state that commit may have reloaded since.
  state.discovered(data.tokens, data.pools);
  const restoreReserves = state.saveReserves();
  const calls = new CallsAtBlock(rpc, data.blocks.get(data.to)!);
  const [rows, quarantined] = await writeIsolating(data, state, async (range, dryRun) => {
    restoreReserves();
    const rows = transformRange(range, state);
    const before = new StoredBalances(held?.balances);
    const plan = await planReconcile(sql, state, range, rows, before);
    const mismatched = plan ? applyReconcile(plan, await calls.read(plan.calls), state, range, rows) : [];
    let recorded: Quarantine[] = [];
    await sql
      .begin(async (tx) => {
        recorded = await recordQuarantines(tx, range);
        await insertQuotePayments(tx, range.quotePayments);
        const fundings = [...range.fundings, ...(await quoteTokenFundings(tx, state, range, rows, held?.wallets))];
        await insertRangeFacts(tx, state, { ...range, fundings }, rows, held?.reserves);
        await markTokens(tx, range, mismatched);
        await deriveRange(tx, state, profile, range.from, rows, fundings, before, held);
        await writeCheckpoint(tx, profile.chainId, ref, profile.finalityDepth);
        if (dryRun) throw DRY_RUN;
      })
      .then(
        () => held?.keep(),
        (err) => {
          held?.drop();
          if (err !== DRY_RUN) throw err;
        },
      );
    return [rows, recorded] as const;
  });
  return { rows, quarantined };
}
