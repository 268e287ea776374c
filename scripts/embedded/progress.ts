import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

type Bar = { label: string; done: number; total: number; etaSeconds: number | null; note: string };

const WIDTH = 24;
const bars = new Map<string, Bar>();
let lastPlain = 0;

function render(b: Bar): string {
  const share = b.total > 0 ? Math.min(1, b.done / b.total) : 1;
  const filled = Math.round(share * WIDTH);
  const eta = b.etaSeconds === null ? "" : ` ETA ${Math.max(0, Math.round(b.etaSeconds))}s`;
  return `${b.label} [${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${(share * 100).toFixed(0)}%${eta} ${b.note}`;
}

/** One status line on a terminal (redrawn in place); a line every 5 s otherwise. */
export function showProgress(key: string, bar: Bar): void {
  bars.set(key, bar);
  const line = [...bars.values()].map(render).join("  |  ");
  if (process.stderr.isTTY) {
    process.stderr.write(`\r${line.slice(0, (process.stderr.columns ?? 160) - 1)}\x1b[K`);
  } else if (Date.now() - lastPlain > 5_000) {
    lastPlain = Date.now();
    process.stderr.write(`${line}\n`);
  }
}

/** Reads a child's JSON-lines stdout: `pick` turns a line into a bar update, others pass through. */
export function followChild(child: ChildProcess, pick: (msg: Record<string, unknown>) => [string, Bar] | null): void {
  createInterface({ input: child.stdout! }).on("line", (line) => {
    let msg: Record<string, unknown> | null = null;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
    } catch {
      // not JSON: pass through
    }
    const update = msg && pick(msg);
    if (update) showProgress(...update);
    else if (!msg || msg.level === "warn" || msg.level === "error") process.stdout.write(`${line}\n`);
  });
}
