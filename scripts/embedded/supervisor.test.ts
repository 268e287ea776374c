/** The launcher's supervision: a component killed with SIGKILL comes back; one held stays down. */
import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { Supervisor } from "./supervisor";

const started: ChildProcess[] = [];
const idle = async () => {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], { stdio: "ignore" });
  started.push(child);
  return child;
};
const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
  );

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((r) => setTimeout(r, 50));
}

afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
});

describe("Supervisor", () => {
  it("restarts a component that dies, says so, and keeps it down once held", async () => {
    const lines: string[] = [];
    const worker = new Supervisor("worker", idle, (line) => lines.push(line));
    await worker.run();
    started[0].kill("SIGKILL");
    await until(() => started.length === 2);
    expect(lines).toEqual(["worker exited (SIGKILL); restarting in 1 s"]);

    // Dying again soon after a restart backs off further.
    started[1].kill("SIGKILL");
    await until(() => lines.length === 2);
    expect(lines[1]).toBe("worker exited (SIGKILL); restarting in 2 s");
    await until(() => started.length === 3);

    await worker.hold();
    await exited(started[2]);
    expect(started[2].signalCode).toBe("SIGTERM");
    expect(lines).toHaveLength(2);
  });

  it("retries a start that fails, and a held component is not started again", async () => {
    const lines: string[] = [];
    let attempts = 0;
    const flaky = new Supervisor(
      "simulator",
      async () => {
        if (++attempts === 1) throw new Error("chain not up");
        return idle();
      },
      (line) => lines.push(line),
    );
    flaky.resume();
    await until(() => started.length === 1);
    expect(lines).toEqual(["simulator did not start: chain not up"]);
    await flaky.hold();
    await exited(started[0]);
    expect(attempts).toBe(2);
  });
});
