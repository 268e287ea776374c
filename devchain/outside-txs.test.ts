/**
 * Outside transactions on a running simulation: a swap on a simulated pair, a launch with a hostile
 * name, a plain transfer, tokens sent straight to a pair, and a transaction from the simulator's own
 * deployer. The simulation mines them after the backfill, adopts what they did and goes on; a chain
 * rebuilt from the same recipe replays them where they were, down to the head's hash. And a journal
 * entry replayed into a pinned backfill: an outside pair created ahead of a launchpad's next token
 * sends the launches to the other launchpad.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  http,
  keccak256,
  parseEther,
  type TransactionReceipt,
  zeroAddress,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { hardhat } from "viem/chains";
import { afterAll, describe, expect, it } from "vitest";
import { loadArtifacts } from "./compile";
import { type Deployment, deploy } from "./deploy";
import { NO_DEADLINE } from "./encoding";
import { historyAt } from "./history-clock";
import { type DevChain, startDevChain } from "./node";
import { type JournalHeader, journalFile, type OutsideTx, readJournal } from "./outside-journal";
import type { GroundTruth } from "./simulator/ground-truth";
import { runSimulation, type SimulationOptions } from "./simulator/runner";

const SEED = 13;
const BACKFILL_SECONDS = 1800;
const HOSTILE_NAME = `\u0000\u202E<script>alert(1)</script>${"x".repeat(300)}`;
/** Hardhat's unlocked accounts; the simulator uses #0 (the deployer) and none of the others. */
const MNEMONIC = "test test test test test test test test test test test junk";

describe("outside transactions", { timeout: 240_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "devchain-outside-"));
  const truthPath = path.join(dataDir, "devchain", "ground-truth.json");
  // Live: the history ends now, as in a running `npm start`, where outside clients come in.
  const { genesisTimestamp, startTimestamp } = historyAt(Math.floor(Date.now() / 1000) - BACKFILL_SECONDS);
  // V2 launches only: the outside swap, launch and donation go through the V2 router, launchpad and pair.
  const sizes = {
    days: BACKFILL_SECONDS / 86_400,
    tokens: 2,
    wallets: 30,
    startTimestamp,
    live: true,
    v3Share: 0,
  } satisfies Partial<SimulationOptions>;
  const chains: DevChain[] = [];
  let original: { head: { number: bigint; hash: Hex }; receipts: TransactionReceipt[] } | undefined;

  afterAll(async () => {
    await Promise.all(chains.map((c) => c.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start() {
    const chain = await startDevChain({ dataDir, genesisTimestamp, seed: SEED });
    chains.push(chain);
    const deployment = await deploy(chain.rpcUrl, { dataDir });
    const client = createPublicClient({ chain: hardhat, transport: http(chain.rpcUrl) });
    return { chain, deployment, client };
  }

  it("mines them once live, after the simulator's transactions, and the simulation goes on", async () => {
    const { chain, deployment, client } = await start();
    const artifacts = await loadArtifacts();
    const wallet = (index: number) =>
      createWalletClient({
        chain: hardhat,
        transport: http(chain.rpcUrl),
        account: mnemonicToAccount(MNEMONIC, { addressIndex: index }),
      });
    // #9 signs locally (eth_sendRawTransaction); #8 and the deployer are signed by the node (eth_sendTransaction).
    const signer = wallet(9);
    const unlocked = (from: Address) =>
      createWalletClient({ chain: hardhat, transport: http(chain.rpcUrl), account: from });

    const controller = new AbortController();
    const notices: string[] = [];
    let outside: Promise<{ hashes: Hex[]; pair: Address }> | undefined;
    // Sent before the simulation is live: it waits until then.
    const early = await signer.sendTransaction({ to: "0x000000000000000000000000000000000000beef", value: 1n });
    const sendOutside = async () => {
      const [launched] = await client.getContractEvents({
        abi: artifacts.V2Launchpad.abi,
        address: deployment.launchpads.map((l) => l.address),
        eventName: "TokenLaunched",
        fromBlock: 0n,
      });
      // Outside clients may send transactions, not mine or set state, while the simulator drives.
      await expect(client.request({ method: "evm_mine", params: [] } as never)).rejects.toThrow(
        /reserved for the dev chain's simulator/,
      );
      const { token } = launched.args as { token: Address };
      const pair = (launched.args as { pair: Address }).pair.toLowerCase() as Address;
      const hashes = [
        await signer.writeContract({
          address: deployment.uniswapV2.router,
          abi: artifacts.UniswapV2Router02.abi,
          functionName: "swapExactETHForTokens",
          args: [0n, [deployment.weth, token], signer.account.address, NO_DEADLINE],
          value: parseEther("1"),
        }),
        await unlocked(wallet(8).account.address).writeContract({
          address: deployment.launchpads[0].address,
          abi: artifacts.V2Launchpad.abi,
          functionName: "launch",
          args: [HOSTILE_NAME, "\u0000EVIL\u202E", parseEther("1000000"), parseEther("600000")],
          value: parseEther("1"),
        }),
        await signer.writeContract({
          address: deployment.weth,
          abi: artifacts.WETH9.abi,
          functionName: "deposit",
          value: parseEther("2"),
        }),
        // Tokens straight to a pair, without a swap: its reserves lag its balances until synced.
        await signer.writeContract({
          address: deployment.weth,
          abi: artifacts.WETH9.abi,
          functionName: "transfer",
          args: [pair, parseEther("2")],
        }),
        // From the simulator's own account: its nonce moves under the simulator.
        await unlocked(deployment.deployer).sendTransaction({
          to: "0x000000000000000000000000000000000000beef",
          value: 2n,
        }),
      ];
      return { hashes, pair };
    };
    const run = runSimulation({
      rpcUrl: chain.rpcUrl,
      deployment,
      seed: SEED,
      ...sizes,
      groundTruthPath: truthPath,
      signal: controller.signal,
      onNotice: (n) => notices.push(n),
      onProgress: (p) => {
        if (p.phase === "live") outside ??= sendOutside();
      },
    });
    const stopped = (async () => {
      while (!outside) await new Promise((r) => setTimeout(r, 100));
      const { hashes, pair } = await outside;
      const receipts = await Promise.all(
        [early, ...hashes].map((hash) =>
          client.waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: 60_000 }),
        ),
      );
      const last = receipts.reduce((n, r) => (r.blockNumber > n ? r.blockNumber : n), 0n);
      // A few blocks more, so the simulation trades on after adopting them.
      while ((await client.getBlockNumber()) < last + 3n) await new Promise((r) => setTimeout(r, 200));
      controller.abort();
      return { receipts, pair };
    })();
    const [{ groundTruth }, { receipts, pair }] = await Promise.all([run, stopped]);

    // The simulation completed and the ground truth was written.
    expect(existsSync(truthPath)).toBe(true);
    const written = JSON.parse(readFileSync(truthPath, "utf8")) as GroundTruth;
    expect(written.timeline.live).toBe(true);
    expect(groundTruth.tokens).toHaveLength(2);

    // All mined and successful, none in the backfilled history.
    expect(receipts.map((r) => r.status)).toEqual(receipts.map(() => "success"));
    for (const r of receipts) expect(Number(r.blockNumber)).toBeGreaterThan(groundTruth.timeline.backfillToBlock);
    expect(written.timeline.throughBlock).toBeGreaterThanOrEqual(
      Math.max(...receipts.map((r) => Number(r.blockNumber))),
    );

    // The hostile launch went through as sent.
    const launchLog = receipts[2].logs.find((l) => l.address === deployment.launchpads[0].address)!;
    const launch = decodeEventLog({ abi: artifacts.V2Launchpad.abi, ...launchLog }) as unknown as {
      args: { name: string };
    };
    expect(launch.args.name).toBe(HOSTILE_NAME);

    // In each block, outside transactions come after the simulator's.
    for (const r of receipts) {
      const block = await client.getBlock({ blockNumber: r.blockNumber });
      const outsiders = new Set(receipts.filter((o) => o.blockNumber === r.blockNumber).map((o) => o.transactionHash));
      expect(block.transactions.slice(block.transactions.length - outsiders.size).every((h) => outsiders.has(h))).toBe(
        true,
      );
    }

    // The pair that received tokens without a swap was synced by the deployer first thing in the next
    // block, with the nonce the outside transaction from the deployer left it.
    const donation = receipts[4];
    const next = await client.getBlock({ blockNumber: donation.blockNumber + 1n, includeTransactions: true });
    expect(next.transactions[0]).toMatchObject({ from: deployment.deployer, to: pair });
    const synced = await client.getTransactionReceipt({ hash: next.transactions[0].hash });
    expect(synced.status).toBe("success");
    await expectReservesAreBalances(client, deployment, pair);

    // The journal has each one where it was mined.
    const { entries } = readJournal(journalFile(dataDir));
    expect(entries.map((e) => [e.hash, e.block, e.index])).toEqual(
      [...receipts]
        .sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.transactionIndex - b.transactionIndex)
        .map((r) => [r.transactionHash, Number(r.blockNumber), r.transactionIndex]),
    );
    expect(notices.some((n) => n.includes("outside transaction(s) mined"))).toBe(true);

    const head = await client.getBlock();
    original = { head: { number: head.number, hash: head.hash }, receipts };
  });

  it("replays them where they were on a chain rebuilt from the same recipe", async () => {
    expect(original).toBeDefined();
    const { head, receipts } = original!;
    await chains[0].stop();
    const { chain, deployment, client } = await start();
    const controller = new AbortController();
    const notices: string[] = [];
    await runSimulation({
      rpcUrl: chain.rpcUrl,
      deployment,
      seed: SEED,
      ...sizes,
      signal: controller.signal,
      onNotice: (n) => notices.push(n),
      onProgress: (p) => {
        if (p.phase === "live" && p.block >= Number(head.number)) controller.abort();
      },
    });
    expect((await client.getBlock({ blockNumber: head.number })).hash).toBe(head.hash);
    for (const r of receipts) {
      const replayed = await client.getTransactionReceipt({ hash: r.transactionHash });
      expect([replayed.blockNumber, replayed.transactionIndex, replayed.status]).toEqual([
        r.blockNumber,
        r.transactionIndex,
        "success",
      ]);
    }
    expect(notices.filter((n) => !n.includes("outside transaction(s) mined"))).toEqual([]);
    // The simulation over, the chain is anyone's again.
    await client.request({ method: "evm_mine", params: [] } as never);
  });
});

describe("a recorded outside pair ahead of a launchpad's next token", { timeout: 240_000 }, () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const { genesisTimestamp, startTimestamp } = historyAt();
  // V2 launches only: an outside pair blocks a V2 launchpad's next token (a V3 launch would not go to either).
  const sizes = { days: 0.25, tokens: 4, wallets: 30, startTimestamp, v3Share: 0 };

  async function simulate(prepare?: (dataDir: string) => void) {
    const dataDir = mkdtempSync(path.join(tmpdir(), "devchain-blocked-"));
    dirs.push(dataDir);
    prepare?.(dataDir);
    const chain = await startDevChain({ dataDir, genesisTimestamp, seed: SEED });
    try {
      const deployment = await deploy(chain.rpcUrl, { dataDir });
      const notices: string[] = [];
      const { groundTruth } = await runSimulation({
        rpcUrl: chain.rpcUrl,
        deployment,
        seed: SEED,
        ...sizes,
        onNotice: (n) => notices.push(n),
      });
      const client = createPublicClient({ chain: hardhat, transport: http(chain.rpcUrl) });
      return {
        deployment,
        groundTruth,
        notices,
        client,
        genesisHash: chain.state.genesisHash,
        stop: () => chain.stop(),
      };
    } catch (e) {
      await chain.stop();
      throw e;
    }
  }

  it("sends the launches to the other launchpad", async () => {
    const { UniswapV2Factory } = await loadArtifacts();
    // Without it, PumpPad launches after the block the pair will be created in.
    const plain = await simulate();
    const block = plain.groundTruth.timeline.fromBlock + 2;
    const index = (await plain.client.getBlock({ blockNumber: BigInt(block) })).transactions.length;
    const { deployment, genesisHash } = plain;
    await plain.stop();
    const [pumpPad] = deployment.launchpads;
    expect(plain.groundTruth.tokens.some((t) => t.launchpad === pumpPad.name && t.launchBlock > block)).toBe(true);

    // PumpPad's next token (its first: contract nonces start at 1) gets its WETH pair from outside first.
    const nextToken = getContractAddress({ from: pumpPad.address, nonce: 1n });
    const account = mnemonicToAccount(MNEMONIC, { addressIndex: 9 });
    const raw = await account.signTransaction({
      chainId: hardhat.id,
      type: "legacy",
      nonce: 0,
      gas: 3_000_000n,
      gasPrice: 0n,
      to: deployment.uniswapV2.factory,
      data: encodeFunctionData({
        abi: UniswapV2Factory.abi,
        functionName: "createPair",
        args: [nextToken, deployment.weth],
      }),
    });
    const header: JournalHeader = {
      journal: "devchain outside transactions",
      version: 1,
      chainId: hardhat.id,
      genesisHash: genesisHash as Hex,
    };
    const entry: OutsideTx = { hash: keccak256(raw), raw, block, index };
    const blocked = await simulate((dataDir) => {
      mkdirSync(path.join(dataDir, "devchain"), { recursive: true });
      writeFileSync(journalFile(dataDir), `${JSON.stringify(header)}\n${JSON.stringify(entry)}\n`);
    });
    try {
      const receipt = await blocked.client.getTransactionReceipt({ hash: entry.hash });
      expect([Number(receipt.blockNumber), receipt.transactionIndex, receipt.status]).toEqual([
        block,
        index,
        "success",
      ]);
      const pair = await blocked.client.readContract({
        address: deployment.uniswapV2.factory,
        abi: UniswapV2Factory.abi,
        functionName: "getPair",
        args: [nextToken, deployment.weth],
      });
      expect(pair).not.toBe(zeroAddress);
      const later = blocked.groundTruth.tokens.filter((t) => t.launchBlock > block);
      expect(later).toHaveLength(sizes.tokens);
      expect(later.map((t) => t.launchpad)).toEqual(later.map(() => deployment.launchpads[1].name));
      expect(blocked.notices.filter((n) => !n.includes("outside transaction(s) mined"))).toEqual([]);
    } finally {
      await blocked.stop();
    }
  });
});

async function expectReservesAreBalances(
  client: ReturnType<typeof createPublicClient>,
  deployment: Deployment,
  pair: Address,
) {
  const { UniswapV2Pair, WETH9 } = await loadArtifacts();
  const [reserve0, reserve1] = (await client.readContract({
    address: pair,
    abi: UniswapV2Pair.abi,
    functionName: "getReserves",
  })) as [bigint, bigint];
  const tokens = await Promise.all(
    ["token0", "token1"].map(
      (f) => client.readContract({ address: pair, abi: UniswapV2Pair.abi, functionName: f }) as Promise<Address>,
    ),
  );
  const balances = await Promise.all(
    tokens.map(
      (t) =>
        client.readContract({ address: t, abi: WETH9.abi, functionName: "balanceOf", args: [pair] }) as Promise<bigint>,
    ),
  );
  expect(balances).toEqual([reserve0, reserve1]);
  expect(tokens.map((t) => t.toLowerCase())).toContain(deployment.weth);
}
