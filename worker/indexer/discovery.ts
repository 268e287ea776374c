import { encodeFunctionData, erc20Abi } from "viem";
import {
  cleanChainText,
  decodeStringResult,
  decodeUintResult,
  NAME_MAX,
  type RawChainText,
  tokenText,
} from "@/lib/chain-text";
import type { ChainProfile } from "../profiles";
import type { ChainLog } from "./decode";
import type { NewPool, NewToken, Quarantine, TokenAnomaly } from "./range";
import { type Rpc, toHex } from "./rpc";
import type { ChainState } from "./state";

/** A factory's new pool, whichever protocol's event announced it. */
const created = (l: ChainLog) =>
  l.kind === "pairCreated"
    ? { ...l, pool: l.pair, fee: null, tickSpacing: null }
    : l.kind === "poolCreated"
      ? { ...l, fee: l.fee, tickSpacing: l.tickSpacing }
      : null;

/**
 * Decimals a token may declare. ERC-20 makes decimals() optional: without an answer 18 stands in (what nearly every
 * token uses; USD values do not depend on it, only unit quantities and unit prices do) and the token is marked
 * decimals_unknown. Above 77 one whole token is more than a uint256 can hold: such a token cannot be priced or shown,
 * so it is quarantined.
 */
export const DEFAULT_DECIMALS = 18;
export const MAX_DECIMALS = 77;

type Erc20Call = "name" | "symbol" | "decimals" | "totalSupply";
/** An ERC-20 view, or the contract's code ("0x": no contract there). */
type Erc20Read = Erc20Call | "code";
const CALLDATA = Object.fromEntries(
  (["name", "symbol", "decimals", "totalSupply"] as const).map((fn) => [
    fn,
    encodeFunctionData({ abi: erc20Abi, functionName: fn }),
  ]),
) as Record<Erc20Call, string>;

/** The answers as hex data; null for a revert (or state the node does not keep). */
async function readErc20(
  rpc: Rpc,
  reads: { token: string; fn: Erc20Read; block: number }[],
): Promise<(string | null)[]> {
  const results = await rpc.batchSettled<string>(
    reads.map((r) =>
      r.fn === "code"
        ? { method: "eth_getCode", params: [r.token, toHex(r.block)] }
        : { method: "eth_call", params: [{ to: r.token, data: CALLDATA[r.fn] }, toHex(r.block)] },
    ),
  );
  return results.map((data) => (typeof data === "string" ? data : null));
}

type Found = Omit<NewToken, "name" | "symbol" | "anomalies"> & {
  rawName: RawChainText | null;
  rawSymbol: RawChainText | null;
};

/**
 * Stage one of discovery: launchpad and factory logs of a range name the tokens and pairs whose
 * logs stage two fetches. Launchpad tokens come from their launch event; with the profile's
 * poolTokens, a token is also the side that is not a quote token of a new pool against one (a
 * launchpad's own launch wins: it names the creator). A pair is tracked when it can carry events
 * of an indexed token or prices WETH. `state` learns the new tokens and pools at once.
 * Names and symbols are cleaned here, where they enter; a token whose decimals cannot be used is
 * returned in `quarantined` instead of `tokens`, and a quarantined token is never found again.
 */
export async function discover(rpc: Rpc, state: ChainState, profile: ChainProfile, logs: ChainLog[]) {
  const launchpads = new Map(profile.launchpads.map((l) => [l.address, l.name]));
  const factories = new Map(profile.factories.map((f) => [f.address, f]));
  const found = new Map<string, Found>();
  const known = (token: string) => state.tokens.has(token) || state.quarantined.has(token) || found.has(token);

  for (const l of logs) {
    if (l.kind !== "tokenLaunched" || !launchpads.has(l.address) || known(l.token)) continue;
    found.set(l.token, {
      address: l.token,
      rawName: l.name,
      rawSymbol: l.symbol,
      origin: "launchpad",
      decimals: DEFAULT_DECIMALS,
      supplyBase: 0n,
      launchpad: launchpads.get(l.address)!,
      creator: l.creator,
      launchPool: l.pair,
      createdBlock: l.block,
      createdTx: l.txHash,
    });
  }
  if (profile.poolTokens) {
    for (const log of logs) {
      const l = created(log);
      if (!l || !factories.has(l.address)) continue;
      // The side that is not a quote token of a pool against one; a pool of two quote tokens, or of none, brings no
      // token.
      const token = state.isQuote(l.token0) ? l.token1 : state.isQuote(l.token1) ? l.token0 : null;
      if (!token || state.isQuote(token) || known(token)) continue;
      found.set(token, {
        address: token,
        rawName: null,
        rawSymbol: null,
        origin: "factory",
        decimals: DEFAULT_DECIMALS,
        supplyBase: 0n,
        launchpad: factories.get(l.address)!.name,
        creator: null,
        launchPool: l.pool,
        createdBlock: l.block,
        createdTx: l.txHash,
      });
    }
  }
  const { tokens, quarantined } = await readTokenFacts(rpc, [...found.values()]);
  state.discovered(tokens, []);

  const pools: NewPool[] = [];
  for (const log of logs) {
    const l = created(log);
    const factory = l && factories.get(l.address);
    if (!l || !factory || state.pools.has(l.pool) || state.quarantined.has(l.pool)) continue;
    // A factory's event of the other protocol (a V2 factory cannot create V3 pools) is not a pool.
    if ((factory.protocol === "uniswap-v3") !== (log.kind === "poolCreated")) continue;
    if (!state.wantsPool(l.token0, l.token1)) continue;
    const pool: NewPool = {
      address: l.pool,
      factory: l.address,
      dex: factory.name,
      protocol: factory.protocol,
      fee: l.fee,
      tickSpacing: l.tickSpacing,
      token0: l.token0,
      token1: l.token1,
      createdBlock: l.block,
    };
    pools.push(pool);
    state.discovered([], [pool]);
  }
  return { tokens, pools, quarantined };
}

/**
 * Decimals of every new token; name and symbol when the launch event did not carry usable ones
 * (always for tokens found through a pair); for tokens found through a pair (created before the
 * indexer saw them) also the supply just before discovery, the base later mints add to, and
 * whether there is a contract at all (without one the address is left out). Every
 * answer is decoded leniently: a revert, no code, a bytes32 or a malformed answer is a fallback,
 * never an error.
 */
async function readTokenFacts(rpc: Rpc, found: Found[]): Promise<{ tokens: NewToken[]; quarantined: Quarantine[] }> {
  const tokens: NewToken[] = [];
  const quarantined: Quarantine[] = [];
  if (found.length === 0) return { tokens, quarantined };
  const plan = found.map((t) => {
    const fns: Erc20Read[] = ["decimals"];
    const fromEvent = t.origin === "launchpad";
    if (!fromEvent || !usable(t.rawName)) fns.push("name");
    if (!fromEvent || !usable(t.rawSymbol)) fns.push("symbol");
    if (!fromEvent) fns.push("totalSupply", "code");
    return fns;
  });
  const reads = found.flatMap((t, i) =>
    plan[i].map((fn) => ({
      token: t.address,
      fn,
      block: fn === "totalSupply" ? Math.max(t.createdBlock - 1, 0) : t.createdBlock,
    })),
  );
  const values = await readErc20(rpc, reads);
  let at = 0;
  found.forEach((t, i) => {
    const answer = Object.fromEntries(plan[i].map((fn) => [fn, values[at++]])) as Partial<
      Record<Erc20Read, string | null>
    >;
    // A pool's side with no code is no token (anyone can create a pool for any address, a future one too): it stays
    // unknown.
    if (answer.code === "0x") return;
    const anomalies = new Set<TokenAnomaly>();
    const decimals = answer.decimals === undefined ? null : decodeUintResult(answer.decimals);
    if (decimals !== null && decimals > BigInt(MAX_DECIMALS)) {
      quarantined.push({
        kind: "token",
        address: t.address,
        reason:
          `decimals() answers ${decimals > 10n ** 12n ? "more than 10^12" : decimals}: ` +
          `above ${MAX_DECIMALS}, one whole token exceeds a uint256`,
        block: t.createdBlock,
        logIndex: -1,
      });
      return;
    }
    if (decimals === null) anomalies.add("decimals_unknown");
    const rawName = "name" in answer ? decodeStringResult(answer.name) : t.rawName;
    const rawSymbol = "symbol" in answer ? decodeStringResult(answer.symbol) : t.rawSymbol;
    const text = tokenText(t.address, { name: rawName, symbol: rawSymbol });
    for (const a of text.anomalies) anomalies.add(a);
    // No answer before the creation block is the usual case (the token and its pair were born together): supply 0.
    const supply = "totalSupply" in answer ? decodeUintResult(answer.totalSupply) : null;
    const { rawName: _n, rawSymbol: _s, ...facts } = t;
    tokens.push({
      ...facts,
      name: text.name,
      symbol: text.symbol,
      decimals: decimals === null ? DEFAULT_DECIMALS : Number(decimals),
      supplyBase: supply ?? t.supplyBase,
      anomalies: [...anomalies],
    });
  });
  return { tokens, quarantined };
}

/** Event text worth keeping: decodable and not empty once cleaned (else name()/symbol() are asked). */
const usable = (r: RawChainText | null) => r !== null && cleanChainText(r.text, NAME_MAX).text !== "";
