import type { ChainProfile } from "../profiles";
import { type ChainLog, decodeLog, type LogRef, logRef, type MalformedLog, TOPICS } from "./decode";
import { discover } from "./discovery";
import { launchEvents } from "./launch-event";
import { BY_ADDRESS, type LogReadPlan } from "./log-reads";
import { withoutEntity } from "./quarantine";
import { firstPaymentsOf } from "./quote-payments";
import type { BlockData, Funding, Quarantine, RangeData } from "./range";
import { type RawBlock, type RawLog, type Rpc, toHex } from "./rpc";
import type { ChainState } from "./state";

/** The node's answers disagree with each other (a reorg happened while fetching): fetch again. */
export class ChainMovedError extends Error {}

const STAGE_TWO_TOPICS = [
  TOPICS.transfer,
  TOPICS.mint,
  TOPICS.burn,
  TOPICS.swap,
  TOPICS.sync,
  TOPICS.initialize,
  TOPICS.swapV3,
  TOPICS.mintV3,
  TOPICS.burnV3,
  TOPICS.collectV3,
  TOPICS.collectProtocol,
  TOPICS.flash,
  TOPICS.increaseLiquidity,
  TOPICS.decreaseLiquidity,
  TOPICS.collectPosition,
  TOPICS.locked,
];
const ZERO = "0x0000000000000000000000000000000000000000";

/**
 * Fetches [from, to]: stage one (launchpad and factory logs) to discover tokens and pairs, and
 * stage two (the logs of every known token and pair) at the same time, then stage two for what
 * discovery added, then the blocks that hold them with their transactions, in JSON-RPC batches.
 * `allBlocks` (the live sync) fetches every block of the range, which it needs for its parent-hash
 * chain, alongside the range's logs in one request (logsReader); a backfill range does so too when
 * `reads` says its logs are read by topic (log-reads.ts). In a backfill, a profile that scans
 * for funders also fetches every block holding a transaction (payments carry no logs).
 */
export async function fetchRange(
  rpc: Rpc,
  state: ChainState,
  profile: ChainProfile,
  from: number,
  to: number,
  allBlocks: boolean,
  reads: LogReadPlan = BY_ADDRESS,
): Promise<RangeData> {
  const launches = launchEvents(profile);
  const factories = new Set(profile.factories.map((f) => f.address));
  const stageOne = [...launches.keys(), ...factories];
  const stageOneTopics = [
    ...new Set([TOPICS.pairCreated, TOPICS.poolCreated, ...[...launches.values()].map((e) => e.topic0)]),
  ];
  const quarantined: Quarantine[] = [];
  const discoveryLogs: ChainLog[] = [];
  const byTopic = allBlocks || reads.byTopic;
  // Read by topic, stage two takes every contract's logs, and what is watched once discovery is done picks its own.
  const known = byTopic ? null : state.watchedAddresses();
  const every = allBlocks ? Array.from({ length: to - from + 1 }, (_, i) => from + i) : [];
  const readLogs = logsReader(rpc, from, to, byTopic, [...stageOneTopics, ...STAGE_TWO_TOPICS]);
  const [stageOneLogs, knownLogs, quoteLogs, everyBlock, probe] = await Promise.all([
    readLogs(stageOne, stageOneTopics),
    readLogs(known, STAGE_TWO_TOPICS),
    readLogs([...state.quoteDecimals.keys()], [TOPICS.transfer]),
    rpc.getBlocks(every, true),
    reads.probeTo === null ? null : rpc.getLogs(from, reads.probeTo, null, [STAGE_TWO_TOPICS]),
  ]);
  for (const raw of stageOneLogs) {
    if (raw.removed) continue;
    // A provider that ignores the address filter must not make anyone a launchpad or a factory.
    const address = raw.address.toLowerCase();
    const launch = launches.get(address);
    const topics = raw.topics ?? [];
    const l = launch
      ? topics[0] === launch.topic0
        ? launch.decode(logRef(raw), topics, raw.data)
        : null
      : factories.has(address)
        ? decodeLog(raw)
        : null;
    if (!l) continue;
    if (l.kind === "malformed")
      quarantined.push({
        kind: "log",
        address: `${l.txHash}:${l.logIndex}`,
        reason: l.reason,
        block: l.block,
        logIndex: l.logIndex,
      });
    else discoveryLogs.push(l);
  }
  discoveryLogs.sort(byChainOrder);
  const discovered = await discover(rpc, state, profile, discoveryLogs);
  const { tokens, pools } = discovered;
  quarantined.push(...discovered.quarantined);
  const quotePayments = await firstPaymentsOf(rpc, state, quoteLogs);

  // Only logs of what is watched count, whatever the provider returns: a contract emitting
  // Transfer, Swap or Sync topics without being a known token or pair is never read.
  const malformed: MalformedLog[] = [];
  const logs: ChainLog[] = [];
  const added = known ? await readLogs(state.watchedAddresses(known.length), STAGE_TWO_TOPICS) : [];
  const watched = (raw: RawLog) => state.watches(raw.address.toLowerCase());
  let ours = 0;
  for (const raw of [...knownLogs, ...added]) {
    if (raw.removed || !watched(raw)) continue;
    ours++;
    const l = decodeLog(raw);
    if (!l) continue;
    // Position NFTs move on position managers; an ERC-721 Transfer anywhere else is not ours.
    if (l.kind === "nftTransfer" && !state.positionManagers.has(l.address)) continue;
    if (l.block < (state.tokens.get(l.address)?.createdBlock ?? 0)) continue;
    if (l.kind === "malformed") malformed.push(l);
    else logs.push(l);
  }
  logs.sort(byChainOrder);
  if (reads.byTopic) reads.measured(knownLogs.length, ours);
  if (probe) reads.measured(probe.length, probe.filter(watched).length);

  const withLogs = new Set([...logs, ...discoveryLogs, ...malformed, ...quarantined].map((l) => l.block));
  const wanted = new Set<number>([to, ...withLogs]);
  if (!allBlocks && profile.scanPayments) for (const n of await blocksWithTransactions(rpc, from, to)) wanted.add(n);
  const numbers = allBlocks ? every : [...wanted].sort((a, b) => a - b);
  const raws = allBlocks ? everyBlock : await rpc.getBlocks(numbers, true);

  const blocks = new Map<number, BlockData>();
  const fundings: Funding[] = [];
  const funded = new Set<string>();
  raws.forEach((raw, i) => {
    if (!raw) throw new ChainMovedError(`block ${numbers[i]} is gone`);
    const block = toBlockData(raw, allBlocks || withLogs.has(Number(raw.number)));
    const parent = blocks.get(block.number - 1);
    if (parent && knownParent(block) && block.parentHash !== parent.hash) {
      throw new ChainMovedError(`block ${block.number} does not extend ${parent.number}`);
    }
    blocks.set(block.number, block);
    // Every fetched block's payments count: all blocks with a transaction when the profile scans them, else those
    // fetched anyway.
    collectFundings(raw, block.number, funded, fundings);
  });
  for (const l of [...logs, ...discoveryLogs, ...malformed]) {
    if (blocks.get(l.block)!.hash !== l.blockHash)
      throw new ChainMovedError(`log of block ${l.block} is from another branch`);
  }
  const data: RangeData = { from, to, logs, blocks, tokens, pools, fundings, quotePayments, quarantined };
  // A token or pool that emits one of our topics in another layout lies about what it is: it is
  // quarantined from that log on (its earlier logs of the range still count).
  for (const l of malformed.sort(byChainOrder)) {
    withoutEntity(data, state, {
      kind: state.tokens.has(l.address) ? "token" : "pool",
      address: l.address,
      reason: l.reason,
      block: l.block,
      logIndex: l.logIndex,
    });
  }
  return data;
}

/** Reads the range's logs of `addresses` (null: of every contract) whose first topic is one of `topics`. */
type ReadLogs = (addresses: string[] | null, topics: string[]) => Promise<RawLog[]>;

/**
 * By address, the node filters, a request per filter (and per chunk of addresses), which keeps other
 * contracts' logs off the wire over long ranges. By topic (a live range of a block or a few, or a
 * backfill range that log-reads.ts finds cheaper so), the range is read in one request of every log
 * with one of `topics`, and each filter picks its logs here: on a node that answers one request at
 * a time the filters' requests would queue behind each other, and with many tokens watched their
 * address chunks make hundreds a range.
 */
function logsReader(rpc: Rpc, from: number, to: number, byTopic: boolean, topics: string[]): ReadLogs {
  if (!byTopic) return (addresses, wanted) => rpc.getLogs(from, to, addresses, [wanted]);
  let all: Promise<RawLog[]> | undefined;
  return async (addresses, wanted) => {
    if (addresses?.length === 0) return [];
    all ??= rpc.getLogs(from, to, null, [[...new Set(topics)]]);
    const of = addresses && new Set(addresses);
    const topic0 = new Set(wanted);
    return (await all).filter(
      (l) => (!of || of.has(l.address.toLowerCase())) && topic0.has(l.topics?.[0]?.toLowerCase() ?? ""),
    );
  };
}

/** Hardhat reports a zero parent hash for blocks it mines in bulk (hardhat_mine): no claim to check. */
export const knownParent = (b: BlockData) => !/^0x0+$/.test(b.parentHash);

const byChainOrder = (a: LogRef, b: LogRef) => a.block - b.block || a.logIndex - b.logIndex;

/** Blocks eth_feeHistory covers per call (the usual provider maximum). */
const FEE_HISTORY_SPAN = 1_024;

/**
 * Blocks of [from, to] holding any transaction, without a request per block: a block's gas used
 * ratio in eth_feeHistory is above zero exactly when it holds a transaction.
 */
async function blocksWithTransactions(rpc: Rpc, from: number, to: number): Promise<number[]> {
  const calls = [];
  for (let newest = to; newest >= from; newest -= FEE_HISTORY_SPAN) {
    calls.push({
      method: "eth_feeHistory",
      params: [toHex(Math.min(FEE_HISTORY_SPAN, newest - from + 1)), toHex(newest), []],
    });
  }
  const histories = await rpc.batch<{ oldestBlock: string; gasUsedRatio: number[] }>(calls);
  return histories.flatMap((h) => h.gasUsedRatio.flatMap((ratio, i) => (ratio > 0 ? [Number(h.oldestBlock) + i] : [])));
}

function toBlockData(raw: RawBlock, keep: boolean): BlockData {
  return {
    keep,
    number: Number(raw.number),
    hash: raw.hash,
    parentHash: raw.parentHash,
    timestamp: Number(raw.timestamp),
    txFrom: new Map(raw.transactions.map((tx) => [tx.hash, tx.from.toLowerCase()])),
  };
}

function collectFundings(raw: RawBlock, block: number, funded: Set<string>, out: Funding[]) {
  for (const tx of raw.transactions) {
    if (!tx.to || BigInt(tx.value) === 0n) continue;
    const wallet = tx.to.toLowerCase();
    const funder = tx.from.toLowerCase();
    if (wallet === funder || wallet === ZERO || funded.has(wallet)) continue;
    funded.add(wallet);
    out.push({ wallet, funder, block, txHash: tx.hash, value: BigInt(tx.value) });
  }
}
