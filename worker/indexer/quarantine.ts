import { insertRows } from "@/db/bulk";
import { quarantinedEntities } from "@/db/schema";
import { cleanChainText } from "@/lib/chain-text";
import { log } from "@/lib/log";
import type { Quarantine, RangeData } from "./range";
import { isoTime, type Tx } from "./sql";
import type { ChainState } from "./state";

/**
 * Quarantine: a failure that belongs to one token, pool or log takes that
 * entity out of indexing, recorded in quarantined_entities with its reason and block, and the
 * range goes on without it. Global failures (database or node down) are not caught here: they
 * reach the worker, which retries with backoff.
 *
 * Where entities are quarantined:
 * - discovery: a token whose decimals() cannot be used (discovery.ts);
 * - fetch: a log with one of our topics but not its layout; from a watched token or pool, that
 *   entity from the log on, from a launchpad or factory, the log alone (fetch.ts);
 * - reconciliation: a token whose Transfer events contradict its balances and whose balanceOf
 *   answers cannot be trusted either (worker/derive/reconcile.ts throws EntityError);
 * - writing: any other data error of a range (a value the database rejects, an exception while
 *   deriving) is traced to one token by writing the range again without halves of its tokens
 *   (rolled back), and that token is quarantined for the whole range.
 */

/** Longest reason kept, in code points. */
const REASON_MAX = 500;

/** A failure that names the entities it belongs to. */
export class EntityError extends Error {
  constructor(readonly entities: { kind: "token" | "pool"; address: string; reason: string }[]) {
    super(entities.map((e) => `${e.kind} ${e.address}: ${e.reason}`).join("; "));
  }
}

/**
 * Errors that may come from one entity's data, worth tracing to it: EntityError, the database's
 * data exceptions and integrity violations (SQLSTATE classes 22 and 23: invalid byte sequences,
 * numeric overflow, duplicate keys), and exceptions of our own code on the data. A lost
 * connection, a timeout or a node error is global.
 */
export function isPoisonCandidate(err: unknown): boolean {
  if (err instanceof EntityError) return true;
  const code = (err as { code?: unknown })?.code;
  if (typeof code === "string" && /^2[23][0-9A-Z]{3}$/.test(code)) return true;
  if (err instanceof RangeError || err instanceof SyntaxError) return true;
  return err instanceof TypeError && !/fetch|network|socket|connect/i.test(err.message);
}

/** The pools a token alone makes worth watching: they go with it. */
function poolsOf(data: RangeData, state: ChainState, token: string): string[] {
  const pools = [...(state.poolsByToken.get(token) ?? []), ...data.pools];
  return pools
    .filter((p) => p.token0 === token || p.token1 === token)
    .filter((p) => {
      const other = p.token0 === token ? p.token1 : p.token0;
      return other === token || !state.tokens.has(other);
    })
    .map((p) => p.address);
}

/** Takes an entity out of a range not yet written: its logs from the cutoff on, and records it. */
export function withoutEntity(data: RangeData, state: ChainState, q: Quarantine) {
  if (data.quarantined.some((x) => x.kind === q.kind && x.address === q.address)) return;
  data.quarantined.push(q);
  if (q.kind === "log") return;
  const gone = new Set([q.address, ...(q.kind === "token" ? poolsOf(data, state, q.address) : [])]);
  data.logs = data.logs.filter(
    (l) =>
      !gone.has(l.address) || (!q.whole && (l.block < q.block || (l.block === q.block && l.logIndex < q.logIndex))),
  );
  if (q.whole) {
    data.tokens = data.tokens.filter((t) => !gone.has(t.address));
    data.pools = data.pools.filter((p) => !gone.has(p.address));
  }
}

/** Where a token's data starts in a range: its first log (or a pool's of it), else its discovery. */
function firstPosition(data: RangeData, state: ChainState, token: string): { block: number; logIndex: number } {
  const mine = new Set([token, ...poolsOf(data, state, token)]);
  const first = data.logs.find((l) => mine.has(l.address));
  if (first) return { block: first.block, logIndex: first.logIndex };
  return { block: data.tokens.find((t) => t.address === token)?.createdBlock ?? data.from, logIndex: -1 };
}

/** Tokens whose data a range carries (through their own logs, their pools' or their discovery), in address order. */
function tokensOf(data: RangeData, state: ChainState): string[] {
  const out = new Set(data.tokens.map((t) => t.address));
  for (const l of data.logs) {
    if (state.tokens.has(l.address)) out.add(l.address);
    const p = state.pools.get(l.address);
    if (p) for (const t of [p.token0, p.token1]) if (state.tokens.has(t)) out.add(t);
  }
  return [...out].sort();
}

const copy = (data: RangeData): RangeData => ({ ...data, quarantined: [...data.quarantined] });

/**
 * Writes a range with `write` (dryRun: everything, then rolled back), quarantining what poisons
 * it until it goes through. Each round quarantines at least one more token, so it ends; an error
 * no token explains is thrown as it came.
 */
export async function writeIsolating<T>(
  data: RangeData,
  state: ChainState,
  write: (data: RangeData, dryRun: boolean) => Promise<T>,
): Promise<T> {
  for (;;) {
    let err: unknown;
    try {
      return await write(data, false);
    } catch (e) {
      err = e;
    }
    if (!isPoisonCandidate(err)) throw err;
    const found =
      err instanceof EntityError
        ? err.entities.map((e) => ({ ...e, ...firstPosition(data, state, e.address), whole: true }))
        : await isolate(data, state, write, err);
    const fresh =
      found?.filter((q) => !data.quarantined.some((x) => x.kind === q.kind && x.address === q.address)) ?? [];
    if (fresh.length === 0) throw err;
    for (const q of fresh) withoutEntity(data, state, q);
  }
}

/**
 * The token whose data makes the range fail, by bisection: the range is written (and rolled
 * back) without halves of its tokens. Null when the range fails without any of them.
 */
async function isolate<T>(
  data: RangeData,
  state: ChainState,
  write: (data: RangeData, dryRun: boolean) => Promise<T>,
  err: unknown,
): Promise<Quarantine[] | null> {
  const candidates = tokensOf(data, state);
  const passes = async (excluded: string[]) => {
    const trial = copy(data);
    for (const token of excluded)
      withoutEntity(trial, state, {
        kind: "token",
        address: token,
        reason: "",
        ...firstPosition(data, state, token),
        whole: true,
      });
    try {
      await write(trial, true);
      return true;
    } catch (e) {
      if (isPoisonCandidate(e)) return false;
      throw e;
    }
  };
  if (candidates.length === 0 || !(await passes(candidates))) return null;
  // Invariant: the range passes without `excluded` and `cands`, and fails without `excluded` alone.
  let excluded: string[] = [];
  let cands = candidates;
  while (cands.length > 1) {
    const half = cands.slice(0, Math.ceil(cands.length / 2));
    if (await passes([...excluded, ...half])) cands = half;
    else [excluded, cands] = [[...excluded, ...half], cands.slice(half.length)];
  }
  const token = cands[0];
  const message = err instanceof Error ? err.message : String(err);
  log.debug("range write failed; traced to one token", { token, error: message });
  return [
    {
      kind: "token",
      address: token,
      reason: `its data fails to write: ${message.slice(0, 300)}`,
      ...firstPosition(data, state, token),
      whole: true,
    },
  ];
}

/** Records a range's quarantines in its transaction; returns those not already recorded. */
export async function recordQuarantines(tx: Tx, data: RangeData): Promise<Quarantine[]> {
  if (data.quarantined.length === 0) return [];
  const list = data.quarantined;
  // Reasons quote database errors and chain values: storable text, like everything from the chain.
  for (const q of list) q.reason = cleanChainText(q.reason, REASON_MAX).text;
  const time = (block: number) => isoTime((data.blocks.get(block) ?? data.blocks.get(data.to)!).timestamp);
  const inserted = await insertRows(
    tx,
    quarantinedEntities,
    list.map((q) => ({
      kind: q.kind,
      address: q.address,
      reason: q.reason,
      block: q.block,
      firstSeenAt: time(q.block),
    })),
    { onConflict: { target: ["kind", "address"], action: "nothing" }, returning: ["kind", "address"] },
  );
  const isNew = new Set(inserted.map((r) => `${r.kind}:${r.address}`));
  return list.filter((q) => isNew.has(`${q.kind}:${q.address}`));
}

/** The worker's one log line per quarantined entity, written once its range committed. */
export function logQuarantined(list: Quarantine[]) {
  for (const q of list) log.warn("quarantined", { kind: q.kind, address: q.address, block: q.block, reason: q.reason });
}
