import { names, PREPARED, tableName } from "@/db/bulk";
import { events, wallets as walletsTable } from "@/db/schema";
import { WINDOWS } from "@/lib/scoring/weights";
import type { Tx } from "../indexer/sql";
import type { ChainState } from "../indexer/state";
import type { Refreshed, RefreshScope, Touched } from ".";
import { firstEventIdAfter, type Head } from "./metrics";
import { TOKEN_CHUNK, WALLET_CHUNK } from "./scores";
import { KeptTokens } from "./scoring/token-inputs";
import { MAX_TRADES } from "./scoring/wallet-inputs";

/**
 * A slice's bounds: tokens, wallets, and rows of scoring input (about: a token's swaps in the
 * lookback, a wallet's recent trades). A refresh that gives way does so between the rows it reads,
 * not while it parses those already sent, so its rows bound how long a block waits for it (a busy
 * token reads ~10,000). One that never gives way (after a backfill or a reorg) takes larger slices:
 * PostgreSQL answers several of a slice's reads by reading a whole table (wallets, tokens, blocks,
 * pool_reserves) whatever the slice's size, so the cost grew with the chain times its slices
 * (docs/scaling.md); its rows bound only the inputs a slice holds in memory.
 */
const SLICE = {
  givingWay: { tokens: 200, wallets: 1_000, rows: 5_000, atOnce: 1 },
  // One scoring chunk a slice (scores.ts), so its reads run once a slice. Two of a stage at once: the
  // refresh is mostly statements (87% of the 5M fixture's), and PostgreSQL runs each on one core.
  whole: { tokens: TOKEN_CHUNK, wallets: WALLET_CHUNK, rows: 250_000, atOnce: 2 },
};

/** What a refresh covers: tokens with their pools, and wallets. */
type Covered = Pick<RefreshScope, "tokens" | "pools" | "wallets">;

/**
 * A refresh as slices, each refreshed in a transaction of its own (so a refresh can give way to a
 * new block between them and go on after it): its pools with the first, then the tokens, then the
 * wallets (whose scores read their tokens' scores), then the tokens of the wallets that became or
 * ceased to be smart money, scored again once, each within the bounds of SLICE; large slices of one
 * stage write disjoint rows, so two run at once (run). A full refresh covers everything indexed; a
 * live one what its blocks touched, in one slice when that fits one (as a block on a quiet chain
 * does), so a busy range's refresh holds no more at once than a full refresh's slice.
 * Its tokens' second scoring reuses the risk parts of their first and reads only their smart money
 * (KeptTokens), unless a block was indexed between them. `unscored`: the tokens (and whether the
 * wallets) whose scores it leaves as they are (worker/indexer/score-cadence.ts): they count no
 * rows of scoring input, so their figures are refreshed in few slices.
 */
export class SlicedRefresh {
  private readonly rescore = new Set<string>();
  /** Slices taken and not yet done. */
  private readonly taken = new Set<RefreshScope>();
  /** When it was planned (Unix ms): the scores it refreshes are at least this recent. */
  readonly plannedAt = Date.now();

  private constructor(
    /** Whether its slices are cut for a refresh that gives way to new blocks (plan). */
    readonly givesWay: boolean,
    /** Whether it leaves the wallets' scores as they are. */
    readonly walletsUnscored: boolean,
    private readonly slices: RefreshScope[],
    /** Each token's swaps in the lookback: its rows in a slice. */
    private readonly swapsOf: Map<string, number>,
    /** Its token slices' risk parts, for the rescore slices while no block comes between them. */
    private readonly earlier: KeptTokens,
  ) {}

  private static bound = (givesWay: boolean) => (givesWay ? SLICE.givingWay : SLICE.whole);

  /** The slices of a full refresh of everything `state` indexes, as of `head`. */
  static async full(
    tx: Tx,
    state: ChainState,
    head: Head,
    givesWay: boolean,
    unscored: Unscored = { tokens: new Set(), wallets: false },
  ): Promise<SlicedRefresh> {
    const all = { tokens: [...state.tokens.keys()], pools: [...state.pools.keys()], wallets: null };
    return SlicedRefresh.plan(tx, head, givesWay, unscored, all);
  }

  /**
   * The slices of a refresh of `scope` (live ranges' tokens, pools and wallets) as of `head`: the
   * scope itself when its tokens and wallets are no more than a large slice's (nothing is read to
   * cut it), else cut as a full refresh is. `unscored`: its tokens whose scores wait.
   */
  static async of(tx: Tx, head: Head, givesWay: boolean, scope: Covered, unscored: string[]): Promise<SlicedRefresh> {
    if (scope.tokens.length <= SLICE.whole.tokens && scope.wallets.length <= SLICE.whole.wallets) {
      const whole = { ...scope, unscored };
      return new SlicedRefresh(givesWay, false, [whole], new Map(), new KeptTokens());
    }
    return SlicedRefresh.plan(tx, head, givesWay, { tokens: new Set(unscored), wallets: false }, scope);
  }

  /** `covered.wallets` null: everything indexed (every wallet, and the tokens and pools given). */
  private static async plan(
    tx: Tx,
    head: Head,
    givesWay: boolean,
    unscored: Unscored,
    covered: Omit<Covered, "wallets"> & { wallets: string[] | null },
  ): Promise<SlicedRefresh> {
    const bound = SlicedRefresh.bound(givesWay);
    const { tokens } = covered;
    const scored = tokens.filter((t) => !unscored.tokens.has(t));
    const everything = covered.wallets === null;
    const swapsOf = scored.length > 0 ? await swapsInLookback(tx, head, everything ? null : scored) : new Map();
    const tokenRows = (t: string) => (unscored.tokens.has(t) ? 0 : (swapsOf.get(t) ?? 0));
    const wallets = await walletTrades(tx, covered.wallets);
    const earlier = new KeptTokens();
    return new SlicedRefresh(
      givesWay,
      unscored.wallets,
      [
        { tokens: [], pools: covered.pools, wallets: [] },
        ...slices(tokens, tokenRows, bound.tokens, bound.rows).map((ts) => ({
          tokens: ts,
          pools: [],
          wallets: [],
          unscored: ts.filter((t) => unscored.tokens.has(t)),
          earlier,
        })),
        ...slices(wallets, (w) => (unscored.wallets ? 0 : w.n), bound.wallets, bound.rows).map((ws) => ({
          tokens: [],
          pools: [],
          wallets: ws.map((w) => w.address),
          walletsUnscored: unscored.wallets,
          rescoreLater: true,
        })),
      ],
      swapsOf,
      earlier,
    );
  }

  /**
   * The slice to refresh next if it belongs to `stage`, taken out of the plan until it is done,
   * failed or gave way; undefined when the plan is complete or the next slice must wait for those
   * taken: a slice starts only beside slices of its own stage (pools, tokens, wallets, tokens scored
   * again; each reads what the ones before it wrote), and one of several kinds only alone.
   */
  private take(stage: Stage | undefined): RefreshScope | undefined {
    const next = this.slices[0];
    if (!next || this.stage !== stage || (stage === null && this.taken.size > 0)) return undefined;
    this.slices.shift();
    this.taken.add(next);
    return next;
  }

  /** The stage of the slice to take next (stageOf); undefined when none is left to take. */
  private get stage(): Stage | undefined {
    return this.slices[0] && stageOf(this.slices[0]);
  }

  /** Whether every slice is done. */
  private get complete(): boolean {
    return this.slices.length === 0 && this.taken.size === 0;
  }

  /**
   * Refreshes the slices with `refresh` until the plan is complete (true) or a block comes: `refresh`
   * answers null when its slice gave way to one, and `blockCame` is asked after each slice while
   * slices remain. A plan of large slices (one that never gives way inside a slice) runs
   * two slices of a stage at once (SLICE). After a failure or a block no slice starts; those
   * running end first, and a failure is thrown then.
   */
  async run(
    refresh: (slice: RefreshScope) => Promise<Refreshed | null>,
    blockCame: () => Promise<boolean>,
  ): Promise<boolean> {
    const failures: unknown[] = [];
    let stopped = false;
    // A round runs the slices of one stage: a runner whose stage ended waits for the others.
    let stage = this.stage;
    const next = () => (failures.length > 0 || stopped ? undefined : this.take(stage));
    const runner = async () => {
      for (let slice = next(); slice; slice = next()) {
        let refreshed: Refreshed | null;
        try {
          refreshed = await refresh(slice);
        } catch (err) {
          this.failed(slice);
          failures.push(err);
          return;
        }
        if (!refreshed) {
          this.gaveWay(slice);
          stopped = true;
          return;
        }
        this.done(slice, refreshed.rescore);
        if (!this.complete && (await blockCame())) stopped = true;
      }
    };
    const { atOnce } = SlicedRefresh.bound(this.givesWay);
    for (; !this.complete && !stopped && failures.length === 0; stage = this.stage)
      await Promise.all(Array.from({ length: atOnce }, runner));
    if (failures.length > 0) throw failures[0];
    return this.complete;
  }

  /** A taken slice did not commit (an error): it is the next to refresh again. */
  private failed(slice: RefreshScope) {
    this.taken.delete(slice);
    this.slices.unshift(slice);
  }

  /**
   * A taken slice did not commit because a block came first. It is tried again in halves (down to
   * one token or wallet), so that one fits between blocks instead of giving way on every block.
   */
  private gaveWay(slice: RefreshScope) {
    this.taken.delete(slice);
    this.slices.unshift(...halves(slice));
  }

  /** A taken slice is committed; `rescore`: the tokens it left to be scored again. */
  private done(slice: RefreshScope, rescore: string[]) {
    this.taken.delete(slice);
    for (const t of rescore) this.rescore.add(t);
    if (!this.complete || this.rescore.size === 0) return;
    const { tokens: most, rows } = SlicedRefresh.bound(this.givesWay);
    for (const tokens of slices([...this.rescore].sort(), (t) => this.swapsOf.get(t) ?? 0, most, rows)) {
      this.slices.push({ tokens: [], pools: [], wallets: [], rescore: tokens, earlier: this.earlier });
    }
    this.rescore.clear();
  }

  /** The tokens (those to score again among them) and wallets of its uncommitted slices; their pools follow the tokens. */
  remaining(): Touched {
    const left = [...this.taken, ...this.slices];
    const at = (k: "tokens" | "wallets" | "rescore") => left.flatMap((s) => s[k] ?? []);
    return { tokens: [...new Set([...at("tokens"), ...at("rescore"), ...this.rescore])], wallets: at("wallets") };
  }
}

/** What a full refresh leaves unscored: these tokens, and the wallets or none. */
export type Unscored = { tokens: Set<string>; wallets: boolean };

const w = names(walletsTable);
/** Wallets with their trades, at most $1 (what its scoring reads), that `where` picks. */
const walletTradesWhere = (where: string) =>
  `select ${w.address} as address, least(${w.tradeCount}, $1) as n from ${tableName(walletsTable)} ${where}`;
const WALLET_TRADES = walletTradesWhere(`order by ${w.address}`);
const WALLET_TRADES_OF = walletTradesWhere(`where ${w.address} = any($2::text[])`);

/** `wallets` (null: every wallet) with their trades; one without a row has none. */
async function walletTrades(tx: Tx, wallets: string[] | null): Promise<{ address: string; n: number }[]> {
  if (wallets === null) return tx.unsafe(WALLET_TRADES, [MAX_TRADES], PREPARED);
  const rows = await tx.unsafe<{ address: string; n: number }[]>(WALLET_TRADES_OF, [MAX_TRADES, wallets], PREPARED);
  const n = new Map(rows.map((r) => [r.address, r.n]));
  return wallets.map((address) => ({ address, n: n.get(address) ?? 0 }));
}

const ev = names(events);
/** Each token's swaps from the event $1 on, of the tokens `and` picks. */
const swapsFromAnd = (and: string) =>
  `select ${ev.tokenAddress} as token, count(*)::int as n from ${tableName(events)}
  where ${ev.type} = 'swap' and ${ev.id} >= $1 ${and} group by ${ev.tokenAddress}`;
const SWAPS_FROM = swapsFromAnd("");
const SWAPS_FROM_OF = swapsFromAnd(`and ${ev.tokenAddress} = any($2::text[])`);

/** Each token's swaps in the scoring's lookback as of `head`, of `tokens` (null: every token). */
async function swapsInLookback(tx: Tx, head: Head, tokens: string[] | null): Promise<Map<string, number>> {
  const first = await firstEventIdAfter(tx, head.timestamp - WINDOWS.swapLookbackSeconds, head);
  const swaps = await tx.unsafe<{ token: string; n: number }[]>(
    tokens ? SWAPS_FROM_OF : SWAPS_FROM,
    tokens ? [first, tokens] : [first],
    PREPARED,
  );
  return new Map(swaps.map((s) => [s.token, s.n]));
}

/**
 * What a slice refreshes, as the stage it belongs to: pools, tokens, wallets or rescore (tokens scored
 * again); null for a slice of several kinds (a live refresh's one slice), which runs alone.
 */
function stageOf(slice: RefreshScope): Stage {
  const kinds = STAGES.filter((k) => (slice[k]?.length ?? 0) > 0);
  return kinds.length === 1 ? kinds[0] : null;
}

const STAGES = ["pools", "tokens", "wallets", "rescore"] as const;
type Stage = (typeof STAGES)[number] | null;

/** A slice as two of half its tokens, wallets, tokens to score again or pools; itself alone if it holds one. */
export function halves(slice: RefreshScope): RefreshScope[] {
  const key = (["tokens", "wallets", "rescore", "pools"] as const).find((k) => (slice[k]?.length ?? 0) > 1);
  if (!key) return [slice];
  const items = slice[key]!;
  const half = Math.ceil(items.length / 2);
  return [
    { ...slice, [key]: items.slice(0, half) },
    { ...slice, [key]: items.slice(half) },
  ];
}

/** `items` in order, cut where a slice reaches `rows` rows (an item counts its own and one) or `most` items. */
export function slices<T>(items: T[], rowsOf: (item: T) => number, most: number, rows: number): T[][] {
  const out: T[][] = [];
  let slice: T[] = [];
  let held = 0;
  for (const item of items) {
    slice.push(item);
    held += rowsOf(item) + 1;
    if (slice.length < most && held < rows) continue;
    out.push(slice);
    slice = [];
    held = 0;
  }
  if (slice.length > 0) out.push(slice);
  return out;
}
