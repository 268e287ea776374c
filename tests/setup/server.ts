import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { serveArgs, waitForHttp } from "@/scripts/embedded/web";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export type AppServer = { baseUrl: string; pid: number; output: () => string; stop: () => Promise<void> };

/**
 * The production build served by scripts/serve.ts against a given database, on a free port. Another
 * process may take the port between our asking and next binding it: then it tries another one.
 * `cwd`: another checkout's build (a benchmark comparing two versions).
 */
export async function startAppServer(env: Record<string, string>, cwd?: string): Promise<AppServer> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    let output = "";
    const child: ChildProcess = spawn(process.execPath, serveArgs(port), {
      cwd,
      // APP_URL: the public origin links and session writes must carry (lib/config.ts), as a browser sees it.
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        LOG_LEVEL: "info",
        WEBHOOK_ALLOW_PRIVATE: "1",
        APP_URL: `http://localhost:${port}`,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const baseUrl = `http://127.0.0.1:${port}`;
    try {
      await waitForHttp(`${baseUrl}/v1/health`, 60_000, () => child.exitCode === null && child.signalCode === null);
    } catch (err) {
      child.kill("SIGKILL");
      if (attempt < 3 && output.includes("EADDRINUSE")) continue;
      throw new Error(`${(err as Error).message}; its output:\n${output}`);
    }
    return {
      baseUrl,
      pid: child.pid!,
      output: () => output,
      stop: () =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    };
  }
}
