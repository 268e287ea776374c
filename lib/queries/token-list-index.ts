import { getTableName, type SQL, sql } from "drizzle-orm";
import { type Db, queryPrepared } from "@/db/client";
import { tokenMetrics, tokenMetricsDeletes } from "@/db/schema";
import { Cache, perDatabase } from "@/lib/cache";
import { FILTER_COLUMNS, flagMask, type TokenFilter } from "@/lib/domain/token-filter";
import { TOKEN_SORT_ORDERS, type TokenSort, type TokenSortColumn } from "@/lib/domain/vocab";
import { breathe, endsStep } from "./breathe";
import { carriedOrder, firstReached, sortedPositions } from "./sorted-positions";
import { carryFilterIndexes, filterIndexes, filterMatches, isSet } from "./token-filter-index";

/**
 * The columns a snapshot reads when it is built: every filter's, and those of the usual sorts
 * (price too: a wallet's open positions are ranked by value, positions.ts). The other sorts'
 * columns are read when first asked for: reading every one with each build would make the build
 * (one statement, under the requests' statement timeout) several times longer.
 */
const BASE_COLUMNS = [
  ...new Set<TokenSortColumn>([
    ...FILTER_COLUMNS,
    ...(["trending", "volume", "price"] as const).map((s) => TOKEN_SORT_ORDERS[s].column),
  ]),
];
/** Each column as a float8, NaN where it has no value (a price change of a token that never traded). */
function columnSql(c: TokenSortColumn): SQL<number> {
  if (c === "createdAtMs") return sql<number>`(extract(epoch from ${tokenMetrics.createdAt}) * 1000)::float8`;
  if (c === "txns24h") return sql<number>`(${tokenMetrics.buys24h} + ${tokenMetrics.sells24h})::float8`;
  return sql<number>`coalesce(${tokenMetrics[c]}::float8, 'NaN'::float8)`;
}

/** An order of a snapshot's positions, as its comparator there: the key the order is kept and carried under. */
export type OrderBy = (s: Snapshot) => (a: number, b: number) => number;

export type Snapshot = {
  /** The data version it was built for. */
  version: number;
  /**
   * Token addresses by position: a token's position indexes every array of the snapshot. A
   * snapshot built from the last one keeps its tokens' positions and appends the new tokens, so
   * what each derives (sort orders, filter indexes, search keys) carries over by position.
   */
  addresses: string[];
  /** The positions in address order. */
  byAddress: Int32Array;
  /** Shared by the snapshots built one from another since a whole read: a position means one token in all of them. */
  lineage: object;
  /** Values by position (created_at in epoch ms): the base columns, then others as they are read. */
  columns: Partial<Record<TokenSortColumn, Float64Array>>;
  loading: Partial<Record<TokenSortColumn, Promise<Float64Array>>>;
  flags: Int32Array;
  /**
   * Token positions in each order asked for (a list sort's, ties broken by address as the list
   * promises; search rank), by its comparator: sorted on first use, then carried to each
   * snapshot built from this one.
   */
  order: Map<OrderBy, Int32Array>;
  /** Scratch space for one search request's matches (requests use it one at a time: no await inside). */
  pass: Uint8Array;
  /** Where its rows were read: a later build reads only the rows written since. */
  readAt: ReadAt;
  /** Rows its build read: every token, or those written since the snapshot it was built from. */
  rowsRead: number;
};

/**
 * Tokens per row of a columnar read. One row for the whole table would carry one string of 128
 * hex characters a token, past V8's longest string (2^29 characters) at about 4 million tokens.
 */
const READ_CHUNK = 4096;

/**
 * The database snapshot (pg_current_snapshot) a read saw token_metrics at, and the table's oid: a
 * table made anew (a database restored under the same name) has another, and nothing read from
 * the old one holds.
 */
type ReadAt = { snapshot: string; table: number };

/** What a columnar read returns, and where it read. */
type ColumnRead = { addresses: string[]; columns: Float64Array[]; flags: Int32Array; readAt: ReadAt };

const TABLE_OID = sql.raw(`'${getTableName(tokenMetrics)}'::regclass::oid::int8`);

/**
 * `values` of the token_metrics rows (every row, or those written since database snapshot
 * `since`), and each token's risk flags as flagMask bits, in address order (bytewise, as
 * JavaScript compares strings), read as columns: each row of the result carries READ_CHUNK
 * tokens' addresses and flags as strings and their values as one bytea of float8s. The client then
 * parses a few values per thousand tokens instead of an object per token (as rows, a build of
 * 100,000 tokens cost the server 1.3 s of CPU: bench:token-list). Null when rows were deleted
 * since `since` (token_metrics_deletes), or the table is another: what is gone cannot be read as
 * a change.
 */
async function readColumns(db: Db, values: SQL<number>[], since?: ReadAt): Promise<ColumnRead | null> {
  const m = tokenMetrics;
  const written = since
    ? sql`${m.changedXact} >= pg_snapshot_xmin(${since.snapshot}::pg_snapshot)::text::bigint
          and not pg_visible_in_snapshot(${m.changedXact}::text::xid8, ${since.snapshot}::pg_snapshot)`
    : sql`true`;
  const deleted = since
    ? sql`exists (select 1 from ${tokenMetricsDeletes}
                   where not pg_visible_in_snapshot(${tokenMetricsDeletes.xact}::text::xid8, ${since.snapshot}::pg_snapshot))`
    : sql`false`;
  const order = sql`address collate "C"`;
  // One statement, one snapshot: the one named is the one the rows were read at.
  const rows = await queryPrepared<{
    snapshot: string;
    table: string;
    deleted: boolean;
    addresses: string | null;
    flags: string;
    data: Buffer;
  }>(
    db,
    sql`select pg_current_snapshot()::text as snapshot, ${TABLE_OID} as table, ${deleted} as deleted,
               c.addresses, c.flags, c.data
          from (select 1) one
          left join lateral (
            select chunk, string_agg(address, ',' order by ${order}) as addresses,
                   string_agg(flags, ',' order by ${order}) as flags,
                   string_agg(data, ''::bytea order by ${order}) as data
              from (select ${m.address} as address, array_to_string(${m.riskFlags}, ' ') as flags,
                           ${sql.join(
                             values.map((v) => sql`float8send(coalesce(${v}, 'NaN'::float8))`),
                             sql` || `,
                           )} as data,
                           (row_number() over (order by ${m.address} collate "C") - 1) / ${READ_CHUNK} as chunk
                      from ${m} where ${written}) t
             group by chunk) c on true
         order by c.chunk`,
  );
  const readAt = { snapshot: rows[0].snapshot, table: Number(rows[0].table) };
  if (rows[0].deleted || (since && since.table !== readAt.table)) return null;
  const chunks = rows.filter((r) => r.addresses !== null);
  const addresses = chunks.flatMap((r) => r.addresses!.split(","));
  const n = addresses.length;
  const columns = values.map(() => new Float64Array(n));
  const flags = new Int32Array(n);
  let i = 0;
  for (const r of chunks) {
    const data = new DataView(r.data.buffer, r.data.byteOffset, r.data.byteLength);
    const count = data.byteLength / (8 * values.length);
    if (endsStep(i, i + count)) await breathe();
    for (const [k, f] of r.flags.split(",").entries()) {
      flags[i + k] = f ? flagMask(f.split(" ")) : 0;
      for (let j = 0; j < values.length; j++) columns[j][i + k] = data.getFloat64((k * values.length + j) * 8);
    }
    i += count;
  }
  return { addresses, columns, flags, readAt };
}

/** A snapshot of a whole read (rows in address order): a lineage of its own. */
const wholeSnapshot = (version: number, read: ColumnRead): Snapshot => ({
  version,
  addresses: read.addresses,
  byAddress: Int32Array.from(read.addresses, (_, i) => i),
  lineage: {},
  columns: Object.fromEntries(BASE_COLUMNS.map((c, j) => [c, read.columns[j]])),
  loading: {},
  flags: read.flags,
  order: new Map(),
  pass: new Uint8Array(read.addresses.length),
  readAt: read.readAt,
  rowsRead: read.addresses.length,
});

/** Where `address` is in snapshot `s`: a binary search of its address order (undefined when it has no such token). */
function positionIn(s: Snapshot, address: string): number | undefined {
  const { addresses, byAddress } = s;
  const k = firstReached(0, byAddress.length, (i) => !(addresses[byAddress[i]] < address));
  return k < byAddress.length && addresses[byAddress[k]] === address ? byAddress[k] : undefined;
}

/** Two positions of `addresses` (distinct) by their addresses: the tie-break of every order of a snapshot. */
export const addressCompare = (addresses: string[]) => (a: number, b: number) => (addresses[a] < addresses[b] ? -1 : 1);

/** Each list sort's order of positions: by value (NaN last), ties by address. */
const LIST_ORDERS = Object.fromEntries(
  Object.entries(TOKEN_SORT_ORDERS).map(([sort, { column, descending }]): [string, OrderBy] => [
    sort,
    (s) => {
      const values = s.columns[column]!;
      const tie = addressCompare(s.addresses);
      return (a, b) => {
        const [x, y] = [values[a], values[b]];
        if (Number.isNaN(x) !== Number.isNaN(y)) return Number.isNaN(x) ? 1 : -1;
        if (!Number.isNaN(x) && x !== y) return x > y === descending ? -1 : 1;
        return tie(a, b);
      };
    },
  ]),
) as Record<TokenSort, OrderBy>;

/** What a build from a snapshot carries over: its columns and its orders. */
type Carried = { columns: TokenSortColumn[]; orders: [OrderBy, Int32Array][] };

/**
 * `base`'s tokens with `changes` (the rows written since base was read, of `base`'s columns, in
 * address order) laid over them: a changed token's values replaced in its position, a new one
 * appended. What base derived is carried over: its sort orders (each changed token taken out
 * and put back where it now sorts) and its filter indexes, a step at a time (breathe.ts). Requests
 * meanwhile get base, to which they may add derived state: what is carried was taken at the start.
 */
async function patched(
  version: number,
  base: Snapshot,
  changes: ColumnRead,
  { columns: carried, orders }: Carried,
): Promise<Snapshot> {
  const addresses = base.addresses.slice();
  const moved = Int32Array.from(changes.addresses, (a) => positionIn(base, a) ?? addresses.push(a) - 1);
  const added = moved.filter((p) => p >= base.addresses.length);
  const n = addresses.length;
  const extended = <T extends Float64Array | Int32Array>(from: T, to: T): T => {
    to.set(from);
    return to;
  };
  const columns: Float64Array[] = [];
  for (const c of carried) {
    columns.push(extended(base.columns[c]!, new Float64Array(n)));
    await breathe();
  }
  const flags = extended(base.flags, new Int32Array(n));
  for (const [k, p] of moved.entries()) {
    for (const [j, column] of columns.entries()) column[p] = changes.columns[j][k];
    flags[p] = changes.flags[k];
  }
  const s: Snapshot = {
    version,
    addresses,
    byAddress: carriedOrder(base.byAddress, n, added, addressCompare(addresses)),
    lineage: base.lineage,
    columns: Object.fromEntries(carried.map((c, j) => [c, columns[j]])),
    loading: {},
    flags,
    order: new Map(),
    pass: new Uint8Array(n),
    readAt: changes.readAt,
    rowsRead: moved.length,
  };
  for (const [by, order] of orders) {
    await breathe();
    s.order.set(by, carriedOrder(order, n, moved, by(s)));
  }
  await carryFilterIndexes(base, s, moved);
  return s;
}

/**
 * The token list read model held in memory: every filter and sort column of token_metrics as
 * typed arrays, pre-sorted for each sort, built for each data version. A list request is then a
 * walk of an order and a filter's bitmap (exact totals included, token-filter-index.ts) instead
 * of a count over the table. A build from an earlier snapshot reads only the rows written since
 * it (a block's few hundred rather than every token: a whole read of 500,000 tokens costs the
 * database about a second); after a delete it reads them all.
 */
async function build(db: Db, version: number, base: Snapshot | undefined): Promise<Snapshot> {
  if (base) {
    // What base has when the build starts goes on: its columns (the base ones and those read since
    // for a sort) and its orders (whose columns were read before them); requests may add more meanwhile.
    const carried = { columns: Object.keys(base.columns) as TokenSortColumn[], orders: [...base.order] };
    const changes = await readColumns(db, carried.columns.map(columnSql), base.readAt);
    if (changes) return patched(version, base, changes, carried);
  }
  return wholeSnapshot(version, (await readColumns(db, BASE_COLUMNS.map(columnSql)))!);
}

/**
 * A column of the snapshot, read on first use (one statement shared by the requests that wait
 * for it). A token written since the build has no value in it (NaN, last in any order); a read
 * that fails is dropped, and the next request tries again.
 */
function columnOf(db: Db, s: Snapshot, column: TokenSortColumn): Promise<Float64Array> {
  const have = s.columns[column];
  if (have) return Promise.resolve(have);
  let loading = s.loading[column];
  if (!loading) {
    loading = (async () => {
      const read = (await readColumns(db, [columnSql(column)]))!;
      const values = new Float64Array(s.addresses.length).fill(Number.NaN);
      // Both in address order: one walk matches the rows read to the snapshot's positions.
      for (let k = 0, i = 0; k < read.addresses.length && i < s.byAddress.length; ) {
        const [a, p] = [read.addresses[k], s.byAddress[i]];
        if (a === s.addresses[p]) values[p] = read.columns[0][k++];
        if (a >= s.addresses[p]) i++;
        else k++;
      }
      s.columns[column] = values;
      return values;
    })();
    loading.catch(() => delete s.loading[column]);
    s.loading[column] = loading;
  }
  return loading;
}

/**
 * The positions in `sort`'s order, sorted when first asked for (most sorts are rarely used;
 * sorting them all would cost the server for nothing), then carried to the next snapshots.
 * Sorted from the address order, so ties stay in it; NaN comes last.
 */
async function orderOf(db: Db, s: Snapshot, sort: TokenSort): Promise<Int32Array> {
  const by = LIST_ORDERS[sort];
  const cached = s.order.get(by);
  if (cached) return cached;
  const { column, descending } = TOKEN_SORT_ORDERS[sort];
  const values = await columnOf(db, s, column);
  const order = s.order.get(by) ?? sortedPositions(values, descending, s.byAddress);
  s.order.set(by, order);
  return order;
}

/** The values of `column` for `addresses` in snapshot `s`: NaN for a token it has no value for. */
export async function snapshotValues(
  db: Db,
  s: Snapshot,
  column: TokenSortColumn,
  addresses: string[],
): Promise<number[]> {
  const values = await columnOf(db, s, column);
  return addresses.map((a) => {
    const i = positionIn(s, a);
    return i === undefined ? Number.NaN : values[i];
  });
}

/**
 * A database's snapshots (a data version numbers a state of one database only): those built
 * lately, by the data version each was built for (a few, as a read of an older one may come in),
 * and the newest built, which requests get while a newer one builds.
 */
const KEPT_BUILDS = 4;
const snapshotsOf = perDatabase("listSnapshots", () => ({
  builds: new Cache<number, Promise<Snapshot>>({ name: "listSnapshots", max: KEPT_BUILDS }),
  /** The same snapshots once built. */
  built: new Cache<number, Snapshot>({ name: "listSnapshots", max: KEPT_BUILDS }),
  ready: undefined as Snapshot | undefined,
  /** The snapshot built last, which the next builds from, and the build under way: builds run one at a time, each from the last. */
  last: undefined as Snapshot | undefined,
  building: Promise.resolve() as Promise<unknown>,
  /**
   * Snapshots a walk with a cursor continues in, the most recently walked last: a walk keeps the
   * order of the data version it started at, so no token moving meanwhile is listed twice or
   * skipped. A few, as each holds the whole list.
   */
  walked: new Cache<number, Snapshot>({ name: "listWalks", max: 4, lru: true }),
}));

/**
 * The snapshot built for `version`, started if there is none (a failed build is dropped: the next
 * one tries again). Builds run one after another, each from the one built before it, so the
 * snapshots since a whole read form one line in which a token keeps its position.
 */
function buildFor(db: Db, version: number): Promise<Snapshot> {
  const snapshots = snapshotsOf(db);
  // Kept off (a benchmark measuring what it earns), every request reads the whole list at once.
  if (snapshots.built.off) return build(db, version, undefined);
  return snapshots.builds.load(version, () => {
    const run = snapshots.building.then(async () => {
      const s = await build(db, version, snapshots.last);
      snapshots.built.set(version, s);
      snapshots.last = s;
      if ((snapshots.ready?.version ?? -1) < version) snapshots.ready = s;
      return s;
    });
    snapshots.building = run.catch(() => undefined);
    return run;
  });
}

/**
 * The snapshot for `version`. While it builds, requests get the newest one built (one data
 * version behind for a moment) rather than waiting; only the very first build is waited for.
 */
export function snapshotFor(db: Db, version: number): Promise<Snapshot> {
  const { ready } = snapshotsOf(db);
  if (ready?.version === version) return Promise.resolve(ready);
  const snapshot = buildFor(db, version);
  return ready ? Promise.resolve(ready) : snapshot;
}

/**
 * The snapshot built for `version` itself, waited for while it builds: reads that must agree at
 * one data version (a wallet's profile and its positions) value at the same prices.
 */
export function snapshotAt(db: Db, version: number): Promise<Snapshot> {
  const { ready } = snapshotsOf(db);
  return ready?.version === version ? Promise.resolve(ready) : buildFor(db, version);
}

/**
 * Where a walk of the list stands: after the token at `address`, whose sort key was `key` (NaN: none), in data version
 * `version`.
 */
export type ListWalk = { version: number; key: number; address: string };

/**
 * The snapshot a walk continues in: the one it started in while it is held (then every token is
 * listed once, however the market moved), else the one of `version`, where the walk resumes after
 * its last token's sort key and address.
 */
function walkSnapshot(db: Db, version: number, after: ListWalk | undefined): Promise<Snapshot> {
  const held = after && walkedSnapshot(db, after.version);
  return held ? Promise.resolve(held) : snapshotFor(db, version);
}

/**
 * The snapshot of `version` while it is held (one of the last built, or one a walk still reads),
 * kept for walks from now on: reads that walk a list in value order (a wallet's positions) keep
 * the prices their walk started at, as the token list's walks keep its order.
 */
export function walkedSnapshot(db: Db, version: number): Snapshot | undefined {
  const { walked, built } = snapshotsOf(db);
  const held = walked.get(version) ?? built.get(version);
  if (held) walked.set(version, held);
  return held;
}

/**
 * The first place in `order` (sorted by `key`, `descending`, then address) that comes after `after`: a binary search.
 */
function startAfter(s: Snapshot, order: Int32Array, key: Float64Array, descending: boolean, after: ListWalk): number {
  const sign = descending ? -1 : 1;
  const c = after.key;
  const isAfter = (i: number) => {
    const x = key[i];
    if (Number.isNaN(x) !== Number.isNaN(c)) return Number.isNaN(x);
    if (!Number.isNaN(x) && x !== c) return sign * (x - c) > 0;
    return s.addresses[i] > after.address;
  };
  return firstReached(0, order.length, (k) => isAfter(order[k]));
}

/**
 * The addresses of one page of the filtered, sorted list, the exact number of matches, and
 * where the next page starts (null after the last match): the page is a walk of the sort order
 * from its start (the page's offset, or the place after a walk's last token) that stops once the
 * page is full.
 */
export async function queryTokenList(
  db: Db,
  version: number,
  q: { filter: TokenFilter; sort: TokenSort; page: number; limit: number; after?: ListWalk },
  now: Date,
): Promise<{ addresses: string[]; total: number; next: ListWalk | null }> {
  const s = await walkSnapshot(db, version, q.after);
  const n = s.addresses.length;
  const { column, descending } = TOKEN_SORT_ORDERS[q.sort];
  const order = await orderOf(db, s, q.sort);
  const key = await columnOf(db, s, column);
  await filterIndexes(s, q.filter, now);
  // Its bitmap is shared: nothing may await between here and the page's walk.
  const matches = filterMatches(s, q.filter, now);
  const passes = (i: number) => matches === null || isSet(matches.bits, i);
  let k = 0;
  // The matches from the page's start on, when known (not after a walk's token): the walk then stops at the
  // last match instead of passing every token after it.
  let left = Number.POSITIVE_INFINITY;
  if (q.after) k = startAfter(s, order, key, descending, q.after);
  else if (matches === null) {
    k = Math.min((q.page - 1) * q.limit, n);
    left = n - k;
  } else {
    let seen = 0;
    for (const first = (q.page - 1) * q.limit; k < n && seen < first; k++) if (passes(order[k])) seen++;
    left = matches.total - seen;
  }
  const page: number[] = [];
  for (; k < n && page.length < q.limit && page.length < left; k++) if (passes(order[k])) page.push(order[k]);
  let more = page.length < left;
  if (left === Number.POSITIVE_INFINITY) {
    while (k < n && !passes(order[k])) k++;
    more = k < n;
  }
  const last = page.at(-1);
  const next = more && last !== undefined ? { version: s.version, key: key[last], address: s.addresses[last] } : null;
  return { addresses: page.map((i) => s.addresses[i]), total: matches?.total ?? n, next };
}
