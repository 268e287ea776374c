/**
 * Keeps one component of `npm start` running: when its process exits (a crash, kill -9), it is
 * started again after a backoff that doubles from 1 s to a minute and starts over once the
 * component has stayed up for a minute. The rest of the product keeps serving meanwhile.
 */
import type { ChildProcess } from "node:child_process";

const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 60_000;
const STABLE_MS = 60_000;

/** The wait before the next start after `failures` failures in a row: 1 s, doubling, at most a minute. */
const backoff = (failures: number) => Math.min(FIRST_DELAY_MS * 2 ** (failures - 1), MAX_DELAY_MS);

/** SIGTERM, then SIGKILL if the process has not exited within `graceMs`. */
export function terminate(child: ChildProcess, graceMs = 5_000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), graceMs).unref();
  });
}

export class Supervisor {
  private child: ChildProcess | undefined;
  private failures = 0;
  private held = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly name: string,
    /** Starts the component; resolves with its process once it is up. */
    private readonly start: () => Promise<ChildProcess>,
    private readonly say: (line: string) => void,
    private readonly options: {
      /** How long `hold` waits for a clean exit before SIGKILL. */
      graceMs?: number;
      /** What else `hold` stops once the process is gone (e.g. the dev chain under its simulator). */
      afterHold?: () => Promise<void>;
    } = {},
  ) {}

  /** Starts the component and keeps it running until `hold` or `stop`. */
  async run(): Promise<void> {
    this.held = false;
    const child = await this.start();
    this.child = child;
    const startedAt = Date.now();
    child.once("exit", (code, signal) => {
      if (this.held || this.child !== child) return;
      this.failures = Date.now() - startedAt >= STABLE_MS ? 1 : this.failures + 1;
      const delay = backoff(this.failures);
      this.say(`${this.name} exited (${code ?? signal}); restarting in ${delay / 1000} s`);
      this.timer = setTimeout(() => this.resume(), delay);
    });
  }

  /** Runs the component (again, after `hold`), retrying with the backoff while it fails to start. */
  resume(): void {
    this.held = false;
    this.run().catch((err: Error) => {
      if (this.held) return;
      this.say(`${this.name} did not start: ${err.message}`);
      this.child = undefined;
      this.failures++;
      this.timer = setTimeout(() => this.resume(), backoff(this.failures));
    });
  }

  /** Stops the component and keeps it stopped until the next `run`. */
  async hold(): Promise<void> {
    this.held = true;
    clearTimeout(this.timer);
    if (this.child) await terminate(this.child, this.options.graceMs);
    await this.options.afterHold?.();
  }
}
