import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const SOURCE_DIRS = ["app", "components", "lib", "db", "public", "packages/sdk/src", "packages/mcp/src"];
const BUILD_ID = path.join(".next", "BUILD_ID");

function newestSourceMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds the production app when there is no build or a source file is newer than it. Async,
 * because the launcher's process also serves the embedded database meanwhile.
 */
export async function buildIfStale(log: (line: string) => void): Promise<void> {
  const built = existsSync(BUILD_ID) ? statSync(BUILD_ID).mtimeMs : 0;
  const newest = Math.max(...SOURCE_DIRS.map(newestSourceMtime), statSync("package.json").mtimeMs);
  if (built > newest) return;
  log("Building the web app (once; takes a minute or two)...");
  const build = spawn(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const code = await new Promise<number | null>((resolve) => build.once("exit", resolve));
  if (code !== 0) throw new Error("next build failed");
}

/** The arguments of node that serve the production build on `port` of loopback (scripts/serve.ts). */
export const serveArgs = (port: number) => [
  "--import",
  "tsx",
  "scripts/serve.ts",
  "-p",
  String(port),
  "-H",
  "127.0.0.1",
];

export function startWeb(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, serveArgs(port), {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, ...env, NEXT_TELEMETRY_DISABLED: "1" },
  });
}

/** Polls `url` until it answers 2xx; gives up after `timeoutMs`, or as soon as `alive` says the server is gone. */
export async function waitForHttp(url: string, timeoutMs: number, alive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`the server for ${url} exited before answering`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}
