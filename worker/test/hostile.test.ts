import {
  type Abi,
  type Address,
  concatHex,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  stringToHex,
  toFunctionSelector,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Sql } from "@/db/client";
import { type Artifacts, type ContractName, loadArtifacts } from "@/devchain/compile";
import { getAmountOut } from "@/devchain/swap-math";
import { eventListJsonFromSearch, tokenListFromSearch } from "@/lib/api/lists";
import { NAME_MAX, SYMBOL_MAX } from "@/lib/chain-text";
import { quarantineCount } from "@/lib/queries/quarantine";
import { getTokenScore, getWalletScore } from "@/lib/queries/scores";
import { getTokenProfile } from "@/lib/queries/tokens";
import { getWalletProfile } from "@/lib/queries/wallets";
import { TOPICS } from "@/worker/indexer/decode";
import { Indexer } from "@/worker/indexer/indexer";
import { toHex } from "@/worker/indexer/rpc";
import type { ChainProfile } from "@/worker/profiles";
import { createTestDatabase, type TestDatabase } from "./db";
import { DevchainMarket, TOKEN_LAUNCHED } from "./devchain-market";
import { saveDumpIfAsked } from "./dump";

/**
 * A hostile chain (issue 16): our own hostile contracts (devchain/contracts/HostileToken.sol,
 * FakePair.sol) and hostile launches through the real Launchpad, indexed by the real indexer
 * from the dev chain into PostgreSQL, twice: with the dev chain's profile without pool tokens (tokens
 * come from the launchpads only) and with launchpads left out (tokens come from their WETH pairs, name(), symbol()
 * and decimals() read by eth_call, as on a real chain). Indexing reaches the head; each bad
 * entity is quarantined with its reason, once; every other token is indexed; text is cleaned;
 * fake events are ignored; balances of lying tokens are reconciled; nothing is NaN or Infinity.
 */

const E18 = 10n ** 18n;
const MAX = 2n ** 256n - 1n;
const DEADLINE = 2n ** 40n;
const REPORTED_NAME = `Evil\u0000\u202E<script>alert(1)</script>${"x".repeat(300)}`;

const abiString = (s: string) => encodeAbiParameters([{ type: "string" }], [s]);
const abiBytes = (b: Hex) => encodeAbiParameters([{ type: "bytes" }], [b]);
const uint = (n: bigint) => encodeAbiParameters([{ type: "uint256" }], [n]);
const bytes32 = (s: string) => stringToHex(s, { size: 32 });
const topic = (a: string) => `0x${a.slice(2).padStart(64, "0")}` as Hex;
const SELECTOR = {
  name: toFunctionSelector("name()"),
  symbol: toFunctionSelector("symbol()"),
  decimals: toFunctionSelector("decimals()"),
};

/** How name(), symbol() or decimals() answer (HostileToken.setAnswer): missing, raw bytes, or a revert. */
type Answer = { mode: 0 | 1 | 2; data?: Hex };
const answer = (data: Hex): Answer => ({ mode: 1, data });
const MISSING: Answer = { mode: 0 };
const REVERTS: Answer = { mode: 2 };

let market: DevchainMarket;
let art: Artifacts;
let owner: Address;
const log: string[] = [];
const writeStdout = process.stdout.write.bind(process.stdout);

async function send(from: string, to: string | undefined, data: Hex, value = 0n): Promise<Hex> {
  return market.rpc.call<Hex>("eth_sendTransaction", [
    { from, to, data, value: `0x${value.toString(16)}`, gas: toHex(9_000_000), gasPrice: "0x0" },
  ]);
}

/** Mines one block holding the transactions sent since the last; each must succeed. */
async function mine(...sent: Promise<Hex>[]) {
  const hashes = await Promise.all(sent);
  await market.mine();
  const receipts = await Promise.all(
    hashes.map((h) =>
      market.rpc.call<{ status: Hex; contractAddress: Address | null }>("eth_getTransactionReceipt", [h]),
    ),
  );
  receipts.forEach((r, i) => {
    if (r?.status !== "0x1") throw new Error(`transaction ${hashes[i]} failed`);
  });
  return receipts;
}

/** Calldata of `functionName` of contract `name` (or any ERC-20). */
const call = (_to: string, name: ContractName | "erc20", functionName: string, args: unknown[] = []): Hex => {
  const abi = (name === "erc20" ? erc20Abi : art[name].abi) as Abi;
  return encodeFunctionData({ abi, functionName, args } as never);
};

async function read<T>(
  to: string,
  name: ContractName | "erc20",
  functionName: string,
  args: unknown[] = [],
  block: number | "latest" = "latest",
): Promise<T> {
  const abi = (name === "erc20" ? erc20Abi : art[name].abi) as Abi;
  const data = await market.rpc.call<Hex>("eth_call", [
    { to, data: call(to, name, functionName, args) },
    typeof block === "number" ? toHex(block) : block,
  ]);
  return decodeFunctionResult({ abi, functionName, data } as never) as T;
}

async function deploy(name: ContractName, args: unknown[]): Promise<Address> {
  const [r] = await mine(
    send(owner, undefined, encodeDeployData({ abi: art[name].abi, bytecode: art[name].bytecode, args } as never)),
  );
  return r.contractAddress!.toLowerCase() as Address;
}

/** A funded wallet of its own (impersonated), for a trader. */
let wallets = 0;
async function wallet(): Promise<Address> {
  const a = `0x${(0xbad000 + ++wallets).toString(16).padStart(40, "0")}` as Address;
  await market.rpc.call("hardhat_impersonateAccount", [a]);
  await mine(send(owner, a, "0x", 1_000n * E18));
  return a;
}

type Hostile = { token: Address; pair: Address };

/** A HostileToken with these answers, paired with WETH (the pair's creation is its discovery). */
async function hostile(opts: {
  name?: Answer;
  symbol?: Answer;
  decimals?: Answer;
  supply?: bigint;
  setup?: (token: Address) => Promise<void>;
}): Promise<Hostile> {
  const token = await deploy("HostileToken", [opts.supply ?? 10n ** 24n]);
  const set = (sel: Hex, a: Answer | undefined, fallback: Answer) => {
    const x = a ?? fallback;
    return send(owner, token, call(token, "HostileToken", "setAnswer", [sel, x.mode, x.data ?? "0x"]));
  };
  await mine(
    set(SELECTOR.name, opts.name, answer(abiString("Hostile"))),
    set(SELECTOR.symbol, opts.symbol, answer(abiString("HOST"))),
    set(SELECTOR.decimals, opts.decimals, answer(uint(18n))),
  );
  if (opts.setup) await opts.setup(token);
  await mine(
    send(
      owner,
      market.deployment.uniswapV2.factory,
      call(market.deployment.uniswapV2.factory, "UniswapV2Factory", "createPair", [token, market.deployment.weth]),
    ),
  );
  const pair = (
    await read<Address>(market.deployment.uniswapV2.factory, "UniswapV2Factory", "getPair", [
      token,
      market.deployment.weth,
    ])
  ).toLowerCase() as Address;
  return { token, pair };
}

/** Liquidity straight into the pair, as the launchpad does. */
async function addLiquidity({ token, pair }: Hostile, from: Address, tokens: bigint, eth: bigint) {
  const weth = market.deployment.weth;
  await mine(
    send(from, token, call(token, "erc20", "transfer", [pair, tokens])),
    send(from, weth, call(weth, "WETH9", "deposit"), eth),
    send(from, weth, call(weth, "erc20", "transfer", [pair, eth])),
    send(from, pair, call(pair, "UniswapV2Pair", "mint", [from])),
  );
}

const buy = (token: Address, trader: Address, eth: bigint) =>
  mine(
    send(
      trader,
      market.deployment.uniswapV2.router,
      call(market.deployment.uniswapV2.router, "UniswapV2Router02", "swapExactETHForTokens", [
        0n,
        [market.deployment.weth, token],
        trader,
        DEADLINE,
      ]),
      eth,
    ),
  );

/** Tokens into the pair, then a swap for what actually arrived (a fee-on-transfer token delivers less). */
async function sell({ token, pair }: Hostile, trader: Address, amount: bigint) {
  await mine(send(trader, token, call(token, "erc20", "transfer", [pair, amount])));
  const [r0, r1] = await read<[bigint, bigint, number]>(pair, "UniswapV2Pair", "getReserves");
  const tokenIs0 = token.toLowerCase() < market.deployment.weth.toLowerCase();
  const [rToken, rWeth] = tokenIs0 ? [r0, r1] : [r1, r0];
  const arrived = (await read<bigint>(token, "HostileToken", "realBalanceOf", [pair])) - rToken;
  const out = getAmountOut(arrived, rToken, rWeth);
  await mine(
    send(
      trader,
      pair,
      call(pair, "UniswapV2Pair", "swap", tokenIs0 ? [0n, out, trader, "0x"] : [out, 0n, trader, "0x"]),
    ),
  );
}

const transfer = (token: Address, from: Address, to: Address, amount: bigint) =>
  mine(send(from, token, call(token, "erc20", "transfer", [to, amount])));

/** A launch through the real PumpPad; `name`/`symbol` as raw bytes allow invalid UTF-8. */
async function launch(creator: Address, name: string | Hex, symbol: string | Hex): Promise<Address> {
  const pad = market.deployment.launchpads[0].address;
  const raw = (s: string | Hex) => (typeof s === "string" && !s.startsWith("0x") ? stringToHex(s) : (s as Hex));
  const data = concatHex([
    toFunctionSelector("launch(string,string,uint256,uint256)"),
    encodeAbiParameters(
      [{ type: "bytes" }, { type: "bytes" }, { type: "uint256" }, { type: "uint256" }],
      [raw(name), raw(symbol), 1_000_000n * E18, 600_000n * E18],
    ),
  ]);
  await mine(send(creator, pad, data, 5n * E18));
  const head = await market.head();
  const [l] = await market.rpc.getLogs(head, head, [pad], [TOKEN_LAUNCHED]);
  return `0x${l.topics[1].slice(26)}` as Address;
}

// The scenario's contracts.
const t: Record<string, Hostile> = {};
let launched: Address;
let launchedUtf8: Address;
let fake: Address;
let traders: Address[];

type Run = { profile: ChainProfile; db: TestDatabase; sql: Sql; ix: Indexer };
const runs: Record<"pairs" | "pads", Run> = {} as never;

async function syncToHead(run: Run) {
  for (let i = 0; i < 200; i++) {
    if ((await run.ix.cycle()).step === "idle") {
      const [{ block }] = await run.sql<{ block: string }[]>`select indexed_block::text as block from sync_state`;
      expect(Number(block)).toBe(await market.head());
      return;
    }
  }
  throw new Error("did not catch up");
}

async function scenario() {
  traders = [await wallet(), await wallet(), await wallet()];
  const [a, b, c] = traders;

  // Text: NUL, bidi overrides, markup and 300 more characters; bytes32; invalid UTF-8.
  t.nul = await hostile({
    name: answer(abiString(REPORTED_NAME)),
    symbol: answer(abiString("E\u0000V\u202EIL\u0007")),
  });
  t.b32 = await hostile({ name: answer(bytes32("Maker")), symbol: answer(bytes32("MKR")) });
  t.utf8 = await hostile({
    name: answer(abiBytes("0xfffe426164")),
    symbol: answer(abiString("\u202eLIVE\u0000")),
    decimals: answer(uint(6n)),
  });
  // Metadata: reverting, missing, unusable decimals.
  t.reverts = await hostile({ name: REVERTS, symbol: REVERTS, decimals: REVERTS });
  t.missing = await hostile({ name: MISSING, symbol: MISSING, decimals: MISSING });
  t.badDecimals = await hostile({ name: answer(abiString("Too Many Decimals")), decimals: answer(uint(255n)) });
  // Amounts: zero and 36 decimals, a supply of 2^256-1 moved whole.
  t.zero = await hostile({ name: answer(abiString("Zero Decimals")), decimals: answer(uint(0n)), supply: 10n ** 12n });
  t.d36 = await hostile({
    name: answer(abiString("Thirty-Six Decimals")),
    decimals: answer(uint(36n)),
    supply: 10n ** 76n,
  });
  t.huge = await hostile({ name: answer(abiString("Max Supply")), decimals: answer(uint(0n)), supply: 0n });
  // Balances: a fee the events hide, a rebase, a lying balanceOf (honest events), a lying balanceOf with lying events.
  t.fee = await hostile({
    name: answer(abiString("Fee On Transfer")),
    setup: (tk) => mine(send(owner, tk, call(tk, "HostileToken", "setFee", [300n]))).then(() => {}),
  });
  t.rebase = await hostile({ name: answer(abiString("Rebaser")) });
  t.liar = await hostile({ name: answer(abiString("Liar")), supply: 0n });
  t.liarLies = await hostile({ name: answer(abiString("Liar Who Lies")) });
  // Logs: a Transfer without its data word.
  t.malformed = await hostile({ name: answer(abiString("Malformed")) });

  for (const k of [
    "nul",
    "b32",
    "utf8",
    "reverts",
    "missing",
    "badDecimals",
    "zero",
    "fee",
    "rebase",
    "liarLies",
    "malformed",
  ]) {
    const amount = k === "zero" ? 10n ** 6n : 10n ** 23n;
    await addLiquidity(t[k], owner, amount, 5n * E18);
  }
  await addLiquidity(t.d36, owner, 10n ** 33n, 5n * E18);

  // The whole of 2^256-1 in one Transfer, then liquidity out of it.
  await mine(send(owner, t.huge.token, call(t.huge.token, "HostileToken", "mint", [a, MAX])));
  await transfer(t.huge.token, a, b, MAX);
  await addLiquidity(t.huge, b, 10n ** 6n, 5n * E18);
  await transfer(t.huge.token, b, c, MAX - 10n ** 6n - 5n);

  // The liar: balanceOf answers 7 for everyone but its pair; its events are true.
  await mine(send(owner, t.liar.token, call(t.liar.token, "HostileToken", "setHonest", [t.liar.pair, true])));
  await mine(send(owner, t.liar.token, call(t.liar.token, "HostileToken", "mint", [owner, 10n ** 24n])));
  await mine(send(owner, t.liar.token, call(t.liar.token, "HostileToken", "setLie", [true, 7n])));
  await addLiquidity(t.liar, owner, 10n ** 23n, 5n * E18);

  for (const k of [
    "nul",
    "b32",
    "utf8",
    "reverts",
    "missing",
    "zero",
    "d36",
    "huge",
    "fee",
    "rebase",
    "liar",
    "malformed",
  ]) {
    await buy(t[k].token, a, E18 / 10n);
    await buy(t[k].token, b, E18 / 5n);
  }
  await transfer(t.fee.token, a, c, 10n ** 18n);
  await sell(t.fee, b, 10n ** 18n);
  await transfer(t.liar.token, a, c, 10n ** 17n);
  await sell(t.liar, b, 10n ** 17n);

  // A rebase moves every balance with no event; the next trade's Sync gives it away.
  await mine(send(owner, t.rebase.token, call(t.rebase.token, "HostileToken", "rebase", [3n, 2n])));
  await buy(t.rebase.token, c, E18 / 10n);

  // Lying events on top of a lying balanceOf (10^60 for everyone but the pair): nothing to believe.
  await mine(
    send(owner, t.liarLies.token, call(t.liarLies.token, "HostileToken", "setHonest", [t.liarLies.pair, true])),
  );
  await mine(send(owner, t.liarLies.token, call(t.liarLies.token, "HostileToken", "setLie", [true, 10n ** 60n])));
  await mine(
    send(
      owner,
      t.liarLies.token,
      call(t.liarLies.token, "HostileToken", "fakeTransfer", [t.liarLies.pair, c, 10n ** 24n]),
    ),
  );

  // A Transfer with its topics and no data: the token is quarantined from that log on.
  await mine(
    send(
      owner,
      t.malformed.token,
      call(t.malformed.token, "HostileToken", "rawLog", [[TOPICS.transfer, topic(owner), topic(a)], "0x"]),
    ),
  );
  await buy(t.malformed.token, c, E18 / 10n);

  // The reported launch, and one with invalid UTF-8, through the real launchpad.
  launched = await launch(b, REPORTED_NAME, "EV\u0000IL\u202e");
  launchedUtf8 = await launch(c, "0xff00c0af4e616d65", "0xfeff53594d");
  await buy(launched, a, E18 / 10n);

  // A contract emitting every event we read, with 2^256-1, without being a token, pair, factory or launchpad.
  fake = await deploy("FakePair", [market.tokens[0].token, market.deployment.weth]);
  await mine(send(owner, fake, call(fake, "FakePair", "lie", [a, MAX])));
}

async function floatsThatAreNotNumbers(sql: Sql) {
  const columns = await sql<{ table_name: string; column_name: string; data_type: string }[]>`
    select table_name, column_name, data_type from information_schema.columns
     where table_schema = 'public' and data_type in ('double precision', 'real', 'numeric')`;
  const bad: string[] = [];
  for (const c of columns) {
    const [{ n }] = await sql.unsafe<{ n: number }[]>(
      c.data_type === "numeric"
        ? `select count(*)::int as n from "${c.table_name}" where "${c.column_name}" = 'NaN'::numeric`
        : `select count(*)::int as n from "${c.table_name}"
            where "${c.column_name}" in ('NaN', 'Infinity', '-Infinity')`,
    );
    if (n > 0) bad.push(`${c.table_name}.${c.column_name}: ${n}`);
  }
  expect(columns.length).toBeGreaterThan(20);
  return bad;
}

/** Every number in an API object is finite (JSON would turn NaN and Infinity into null). */
function expectFinite(value: unknown, path = "$") {
  if (typeof value === "number") expect(Number.isFinite(value), path).toBe(true);
  else if (Array.isArray(value)) value.forEach((v, i) => expectFinite(v, `${path}[${i}]`));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) expectFinite(v, `${path}.${k}`);
}

const quarantineLines = () =>
  log
    .filter((l) => l.includes('"msg":"quarantined"'))
    .map((l) => JSON.parse(l) as { kind: string; address: string; reason: string });

describe("a hostile chain", { timeout: 600_000 }, () => {
  beforeAll(async () => {
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      if (typeof chunk === "string") log.push(...chunk.split("\n").filter(Boolean));
      return writeStdout(chunk, ...rest);
    }) as typeof process.stdout.write;
    market = await DevchainMarket.start(16);
    art = await loadArtifacts();
    owner = (await market.rpc.call<Address[]>("eth_accounts", []))[8].toLowerCase() as Address;
    await market.simulate(6);
    await scenario();
    for (const [name, profile] of [
      ["pairs", { ...market.profile, launchpads: [] }],
      ["pads", { ...market.profile, poolTokens: false }],
    ] as [keyof typeof runs, ChainProfile][]) {
      const db = await createTestDatabase();
      const sql = connect(db.url, { max: 4 });
      runs[name] = {
        profile,
        db,
        sql,
        ix: await Indexer.create({ sql, rpc: market.rpc, profile, fullRefreshIntervalMs: 0 }),
      };
    }
  }, 600_000);
  afterAll(async () => {
    process.stdout.write = writeStdout;
    for (const [name, run] of Object.entries(runs))
      if (run.db) await saveDumpIfAsked(`hostile-${name}-end`, run.db.url);
    for (const run of Object.values(runs)) {
      await run.sql?.end();
      await run.db?.drop();
    }
    await market?.stop();
  });

  it("reaches the head; quarantines each bad entity with its reason, logged once; indexes the others", async () => {
    await syncToHead(runs.pairs);
    await syncToHead(runs.pads);
    for (const [name, run] of Object.entries(runs)) await saveDumpIfAsked(`hostile-${name}-head`, run.db.url);
    const { sql } = runs.pairs;
    const q = await sql<{ kind: string; address: string; reason: string; block: string }[]>`
      select kind, address, reason, block::text from quarantined_entities order by address`;
    const reasons = Object.fromEntries(q.map((r) => [r.address, r.reason]));
    expect(Object.keys(reasons).sort()).toEqual([t.badDecimals.token, t.liarLies.token, t.malformed.token].sort());
    expect(q.every((r) => r.kind === "token")).toBe(true);
    expect(reasons[t.badDecimals.token]).toMatch(/decimals\(\) answers 255/);
    expect(reasons[t.malformed.token]).toMatch(/malformed Transfer log: 0 bytes of data/);
    expect(reasons[t.liarLies.token]).toMatch(/Transfer events are inconsistent.*cannot be trusted/);

    expect(await quarantineCount(createDb(sql))).toBe(3);
    expect(await quarantineCount(createDb(runs.pads.sql))).toBe(0);

    // Every token but the one that never had usable decimals is indexed, the launchpads' included.
    const tokens = new Set((await sql<{ address: string }[]>`select address from tokens`).map((r) => r.address));
    for (const [k, h] of Object.entries(t)) expect(tokens.has(h.token), k).toBe(k !== "badDecimals");
    for (const m of market.tokens) expect(tokens.has(m.token)).toBe(true);
    for (const a of [launched, launchedUtf8]) expect(tokens.has(a)).toBe(true);
    const padTokens = new Set(
      (await runs.pads.sql<{ address: string }[]>`select address from tokens`).map((r) => r.address),
    );
    expect(padTokens).toEqual(new Set([...market.tokens.map((m) => m.token), launched, launchedUtf8]));

    // One line each, and further cycles neither log nor fail again.
    for (let i = 0; i < 3; i++) await runs.pairs.ix.cycle(), await runs.pads.ix.cycle();
    const lines = quarantineLines();
    expect(lines.map((l) => l.address).sort()).toEqual(Object.keys(reasons).sort());
    expect(log.filter((l) => l.includes("indexing cycle failed"))).toEqual([]);
  });

  it("stores names and symbols cleaned, with fallbacks where a token gives none", async () => {
    const rows = await runs.pairs.sql<
      { address: string; name: string; symbol: string; decimals: number; anomalies: string[] }[]
    >`
      select address, name, symbol, decimals, anomalies from tokens`;
    const by = new Map(rows.map((r) => [r.address, r]));
    for (const r of rows) {
      expect(r.name, r.address).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
      expect(r.symbol, r.address).not.toMatch(
        /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/,
      );
      expect(Array.from(r.name).length).toBeLessThanOrEqual(NAME_MAX);
      expect(Array.from(r.symbol).length).toBeLessThanOrEqual(SYMBOL_MAX);
      expect(r.name.length * r.symbol.length).toBeGreaterThan(0);
    }
    const cleaned = `Evil<script>alert(1)</script>${"x".repeat(NAME_MAX - "Evil<script>alert(1)</script>".length)}`;
    expect(by.get(t.nul.token)).toMatchObject({
      name: cleaned,
      symbol: "EVIL",
      decimals: 18,
      anomalies: ["text_cleaned"],
    });
    expect(by.get(t.b32.token)).toMatchObject({ name: "Maker", symbol: "MKR", anomalies: [] });
    expect(by.get(t.utf8.token)).toMatchObject({
      name: "\ufffd\ufffdBad",
      symbol: "LIVE",
      decimals: 6,
      anomalies: ["text_cleaned"],
    });
    for (const k of ["reverts", "missing"]) {
      const a = t[k].token;
      expect(by.get(a)).toMatchObject({
        name: `${a.slice(0, 6)}…${a.slice(-4)}`,
        symbol: a.slice(0, 8),
        decimals: 18,
        anomalies: ["decimals_unknown", "metadata_fallback"],
      });
    }
    expect(by.get(t.zero.token)?.decimals).toBe(0);
    expect(by.get(t.d36.token)?.decimals).toBe(36);
    // The reported launch: the same name from the event (launchpads) and from name() (pairs).
    for (const sql of [runs.pairs.sql, runs.pads.sql]) {
      const [l] = await sql<
        { name: string; symbol: string; anomalies: string[] }[]
      >`select name, symbol, anomalies from tokens where address = ${launched}`;
      expect(l).toEqual({ name: cleaned, symbol: "EVIL", anomalies: ["text_cleaned"] });
      const [u] = await sql<
        { name: string; symbol: string }[]
      >`select name, symbol from tokens where address = ${launchedUtf8}`;
      // 0xff 0x00 0xc0 0xaf "Name": three invalid bytes, a NUL; 0xfe 0xff "SYM".
      expect(u).toEqual({ name: "\ufffd\ufffd\ufffdName", symbol: "\ufffd\ufffdSYM" });
    }
  });

  it("ignores events from contracts that are not the token or a known pair", async () => {
    for (const { sql } of Object.values(runs)) {
      const [n] = await sql<{ n: number }[]>`
        select (select count(*) from tokens where address = ${fake})
               + (select count(*) from pools where address = ${fake})
             + (select count(*) from token_transfers where token_address = ${fake} or from_address = ${fake})
             + (select count(*) from events where token_address = ${fake} or pool_address = ${fake})
             + (select count(*) from pool_reserves where pool_address = ${fake}) as n`;
      // (counts are int8: the sum comes back as text)
      expect(Number(n.n)).toBe(0);
    }
    // The victim's balance and the real pair it named are the chain's.
    await expectBalancesEqualChain(
      runs.pairs.sql,
      market.tokens.map((m) => m.token),
      "balanceOf",
    );
    await expectBalancesEqualChain(
      runs.pads.sql,
      market.tokens.map((m) => m.token),
      "balanceOf",
    );
  });

  it("reconciles the balances of fee-on-transfer and rebasing tokens with the chain and marks them", async () => {
    const { sql } = runs.pairs;
    await expectBalancesEqualChain(sql, [t.fee.token, t.rebase.token], "realBalanceOf");
    await expectSupplyEqualsChain(sql, [t.fee.token, t.rebase.token]);
    const marks = await sql<
      { address: string; anomalies: string[] }[]
    >`select address, anomalies from tokens where 'balance_mismatch' = any(anomalies)`;
    expect(marks.map((m) => m.address).sort()).toEqual([t.fee.token, t.rebase.token].sort());
    await expectPositionsEqualBalances(sql);
    // Honest tokens found through a pair: the owner's opening balance asked once, nothing marked.
    await expectBalancesEqualChain(
      sql,
      ["nul", "b32", "utf8", "reverts", "missing", "zero", "d36", "huge"].map((k) => t[k].token),
      "realBalanceOf",
    );
  });

  it("keeps the true balances of a token whose balanceOf lies: none negative or above the supply", async () => {
    const { sql } = runs.pairs;
    await expectBalancesEqualChain(sql, [t.liar.token], "realBalanceOf");
    const [{ negative }] = await sql<
      { negative: number }[]
    >`select count(*)::int as negative from balances where amount < 0`;
    expect(negative).toBe(0);
    const [{ above }] = await sql<{ above: number }[]>`
      select count(*)::int as above from tokens t where t.total_supply < 0
          or t.total_supply < (select coalesce(max(amount), 0) from balances b where b.token_address = t.address)`;
    expect(above).toBe(0);
    // The liar whose events lie too stopped at its quarantine: no balance went negative.
    const [{ rows }] = await sql<
      { rows: number }[]
    >`select count(*)::int as rows from balances where token_address = ${t.liarLies.token} and amount < 0`;
    expect(rows).toBe(0);
  });

  it("skips the logs of a quarantined token from its quarantine on", async () => {
    const { sql } = runs.pairs;
    const [{ block }] = await sql<
      { block: string }[]
    >`select block::text from quarantined_entities where address = ${t.malformed.token}`;
    const [{ before, after }] = await sql<{ before: number; after: number }[]>`
      select count(*) filter (where block_number < ${block})::int as before,
             count(*) filter (where block_number >= ${block})::int as after
        from events where token_address = ${t.malformed.token}`;
    expect(before).toBeGreaterThan(0);
    expect(after).toBe(0);
  });

  it("writes no NaN or Infinity anywhere, and serves only finite numbers", async () => {
    for (const { sql } of Object.values(runs)) expect(await floatsThatAreNotNumbers(sql)).toEqual([]);
    const db = createDb(runs.pairs.sql);
    const [{ time }] = await runs.pairs.sql<
      { time: number }[]
    >`select extract(epoch from indexed_block_time)::float8 as time from sync_state`;
    const now = new Date(time * 1000);
    const addresses = (await runs.pairs.sql<{ address: string }[]>`select address from tokens`).map((r) => r.address);
    for (const a of addresses) {
      expectFinite(await getTokenProfile(db, a, now), a);
      expectFinite(await getTokenScore(db, a), a);
    }
    for (const sort of ["trending", "newest", "liquidity", "volume", "risk_asc"]) {
      expectFinite(await tokenListFromSearch(db, new URLSearchParams({ sort, limit: "200" }), now));
    }
    for (const w of [...traders, owner]) {
      expectFinite(await getWalletProfile(db, w));
      expectFinite(await getWalletScore(db, w));
    }
    // Events are serialised by PostgreSQL: NaN would not even parse.
    expectFinite(JSON.parse(await eventListJsonFromSearch(db, new URLSearchParams({ limit: "200" }))));
    const [m] = await runs.pairs.sql<
      { cap: number; price: number }[]
    >`select market_cap_usd as cap, price_usd as price from token_metrics where address = ${t.d36.token}`;
    expect(Number.isFinite(m.cap) && Number.isFinite(m.price)).toBe(true);
  });

  it("goes on live: more lies and hostile launches near the head handled, each quarantine logged once", async () => {
    const [a, b, c] = traders;
    await mine(send(owner, t.rebase.token, call(t.rebase.token, "HostileToken", "rebase", [2n, 1n])));
    await buy(t.rebase.token, a, E18 / 10n);
    await transfer(t.fee.token, c, a, 10n ** 17n);
    await sell(t.fee, a, 10n ** 16n);
    await transfer(t.malformed.token, a, b, 1n);
    await mine(send(owner, fake, call(fake, "FakePair", "lie", [b, MAX])));
    const again = await launch(a, REPORTED_NAME, "\u0000");
    await buy(again, b, E18 / 10n);
    for (let i = 0; i < 3; i++) await market.simulate(1, 2);
    await syncToHead(runs.pairs);
    await syncToHead(runs.pads);

    await expectBalancesEqualChain(runs.pairs.sql, [t.fee.token, t.rebase.token, t.liar.token], "realBalanceOf");
    await expectSupplyEqualsChain(runs.pairs.sql, [t.fee.token, t.rebase.token]);
    await expectBalancesEqualChain(
      runs.pads.sql,
      market.tokens.map((m) => m.token),
      "balanceOf",
    );
    for (const { sql } of Object.values(runs)) {
      const [r] = await sql<
        { name: string; symbol: string }[]
      >`select name, symbol from tokens where address = ${again}`;
      expect(r.name.startsWith("Evil<script>")).toBe(true);
      expect(r.symbol).toBe(again.slice(0, 8));
      expect(await floatsThatAreNotNumbers(sql)).toEqual([]);
    }
    const counts = new Map<string, number>();
    for (const l of quarantineLines()) counts.set(l.address, (counts.get(l.address) ?? 0) + 1);
    expect([...counts.values()]).toEqual([1, 1, 1]);
    expect(log.filter((l) => l.includes("indexing cycle failed"))).toEqual([]);
  });

  it("rolls quarantines and reconciliations back with a reorg, redoing what the new branch still holds", async () => {
    const [a, b] = traders;
    const revert = await market.snapshot();
    // Branch one: a token quarantined for a malformed log, and fee-token trades reconciled.
    const doomed = await hostile({ name: answer(abiString("Doomed")) });
    await addLiquidity(doomed, owner, 10n ** 23n, 5n * E18);
    await mine(
      send(owner, doomed.token, call(doomed.token, "HostileToken", "rawLog", [[TOPICS.transfer, topic(owner)], "0x"])),
    );
    await sell(t.fee, a, 10n ** 15n);
    await syncToHead(runs.pairs);
    const quarantined = async () =>
      (await runs.pairs.sql<{ address: string }[]>`select address from quarantined_entities`)
        .map((r) => r.address)
        .sort();
    expect(await quarantined()).toContain(doomed.token);
    // Branch two, longer: neither the doomed token nor that sale; another fee-token sale.
    await revert();
    await sell(t.fee, b, 2n * 10n ** 15n);
    await market.simulate(12, 2);
    await syncToHead(runs.pairs);
    await syncToHead(runs.pads);
    expect(await quarantined()).toEqual([t.badDecimals.token, t.liarLies.token, t.malformed.token].sort());
    const [{ n }] = await runs.pairs.sql<
      { n: number }[]
    >`select count(*)::int as n from tokens where address = ${doomed.token}`;
    expect(n).toBe(0);
    await expectBalancesEqualChain(runs.pairs.sql, [t.fee.token, t.rebase.token, t.liar.token], "realBalanceOf");
    await expectSupplyEqualsChain(runs.pairs.sql, [t.fee.token, t.rebase.token]);
    await expectBalancesEqualChain(
      runs.pads.sql,
      market.tokens.map((m) => m.token),
      "balanceOf",
    );
    await expectPositionsEqualBalances(runs.pairs.sql);
  });
});

/** Stored balances of these tokens equal the chain's at the indexed block (every holder the index knows). */
async function expectBalancesEqualChain(sql: Sql, tokens: string[], getter: "balanceOf" | "realBalanceOf") {
  const [{ block }] = await sql<{ block: string }[]>`select indexed_block::text as block from sync_state`;
  const rows = await sql<{ token: string; holder: string; amount: string }[]>`
    select token_address as token, holder, amount::text from balances where token_address = any(${tokens})
       and holder <> '0x0000000000000000000000000000000000000000'`;
  expect(rows.length).toBeGreaterThan(tokens.length);
  const chain = await Promise.all(
    rows.map((r) =>
      read<bigint>(r.token, getter === "balanceOf" ? "erc20" : "HostileToken", getter, [r.holder], Number(block)),
    ),
  );
  expect(rows.map((r) => `${r.token}:${r.holder}:${r.amount}`)).toEqual(
    rows.map((r, i) => `${r.token}:${r.holder}:${chain[i]}`),
  );
}

async function expectSupplyEqualsChain(sql: Sql, tokens: string[]) {
  const [{ block }] = await sql<{ block: string }[]>`select indexed_block::text as block from sync_state`;
  const rows = await sql<
    { address: string; total_supply: string }[]
  >`select address, total_supply::text from tokens where address = any(${tokens})`;
  const chain = await Promise.all(rows.map((r) => read<bigint>(r.address, "erc20", "totalSupply", [], Number(block))));
  expect(rows.map((r) => `${r.address}:${r.total_supply}`)).toEqual(rows.map((r, i) => `${r.address}:${chain[i]}`));
}

/**
 * Every real holder's position holds exactly its balance, and its unknown-cost part within it (reconciliation rows
 * included).
 */
async function expectPositionsEqualBalances(sql: Sql) {
  const [{ bad }] = await sql<{ bad: number }[]>`
    select count(*)::int as bad from wallet_positions p
      left join balances b on b.token_address = p.token_address and b.holder = p.wallet
     where p.quantity <> coalesce(b.amount, 0) or p.unknown_cost_quantity < 0 or p.unknown_cost_quantity > p.quantity`;
  expect(bad).toBe(0);
}
