/**
 * Starts the dev chain: a Hardhat 2 (EDR) JSON-RPC node on 127.0.0.1 in a child process.
 *
 * The chain lives in memory only. Every start is a new chain from genesis; the launcher then
 * deploys and replays the simulation from its seed, and the simulator replays the outside
 * transactions recorded in `<dataDir>/devchain/outside-txs.jsonl` where they were mined, so the
 * rebuilt chain equals the old one. `<dataDir>/devchain/state.json` records the chain id and
 * genesis hash of the running chain so a consumer that kept data from an earlier chain can see that
 * the chain was reset (the genesis hash changes with the genesis timestamp).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { writeJsonAtomic } from "./files";
import { RpcClient } from "./rpc";

export interface DevChainOptions {
  /** Loopback port of the JSON-RPC server; omitted: one the OS picks (tests never collide on a port). */
  port?: number;
  /** The launcher's data directory: the chain marker goes to `<dataDir>/devchain/state.json`, the
   * journal of outside transactions to `<dataDir>/devchain/outside-txs.jsonl`. */
  dataDir: string;
  /** Unix seconds of the genesis block; must precede the simulated history. */
  genesisTimestamp: number;
  /** Recorded in the marker: the simulation seed the launcher will replay on this chain. */
  seed?: number;
}

export interface DevChainState {
  chainId: number;
  genesisHash: string;
  genesisTimestamp: number;
  seed: number | null;
  rpcUrl: string;
  startedAt: string;
}

export interface DevChain {
  rpcUrl: string;
  state: DevChainState;
  stop(): Promise<void>;
}

const SERVER = path.join(import.meta.dirname, "node-server.ts");
const CONFIG = path.join(import.meta.dirname, "hardhat.config.cjs");
const LISTENING = /devchain listening on (http:\/\/127\.0\.0\.1:\d+)/;

/** The dev chain's WebSocket endpoint (requests and newHeads), on the port of its JSON-RPC URL. */
export const devchainWsUrl = (rpcUrl: string) => rpcUrl.replace(/^http/, "ws");

export async function startDevChain(options: DevChainOptions): Promise<DevChain> {
  const { genesisTimestamp } = options;
  // The IPC channel lets the child notice when this process dies, however it dies.
  const child = spawn(process.execPath, ["--import", "tsx", SERVER, String(options.port ?? 0)], {
    env: {
      ...process.env,
      HARDHAT_CONFIG: CONFIG,
      DEVCHAIN_GENESIS_TIMESTAMP: String(genesisTimestamp),
      DEVCHAIN_DATA_DIR: path.resolve(options.dataDir),
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stdout = child.stdout!;
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const rpcUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    stdout.on("data", (d: Buffer) => {
      const listening = LISTENING.exec((out += d.toString()));
      if (listening) resolve(listening[1]);
    });
    void exited.then((code) => reject(new Error(`dev chain exited (code ${code}) before listening:\n${stderr}`)));
  });

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  try {
    const rpc = new RpcClient(rpcUrl);
    const [chainId, genesis] = (await rpc.batch([
      { method: "eth_chainId", params: [] },
      { method: "eth_getBlockByNumber", params: ["0x0", false] },
    ])) as [string, { hash: string }];
    const state: DevChainState = {
      chainId: Number(chainId),
      genesisHash: genesis.hash,
      genesisTimestamp,
      seed: options.seed ?? null,
      rpcUrl,
      startedAt: new Date().toISOString(),
    };
    writeJsonAtomic(path.join(options.dataDir, "devchain", "state.json"), state);
    return { rpcUrl, state, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
