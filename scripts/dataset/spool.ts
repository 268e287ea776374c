import { once } from "node:events";
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

/**
 * Records parked on disk (one JSON line each) until the end of generation, then read back in
 * order. Token score drafts wait for every wallet's reputation; kept in memory, the large set's
 * drafts would be the biggest live object and make the heap (and RSS) grow several times over.
 */
export class Spool<T> {
  private readonly dir = mkdtempSync(path.join(tmpdir(), "dataset-spool-"));
  private readonly file = path.join(this.dir, "records.ndjson");
  private readonly out = createWriteStream(this.file);

  async push(record: T): Promise<void> {
    if (!this.out.write(`${JSON.stringify(record)}\n`)) await once(this.out, "drain");
  }

  /** Every record pushed, in order; the spool is deleted once read to the end. */
  async *records(): AsyncGenerator<T> {
    this.out.end();
    await once(this.out, "finish");
    for await (const line of createInterface({ input: createReadStream(this.file), crlfDelay: Infinity })) {
      yield JSON.parse(line) as T;
    }
    this.remove();
  }

  remove(): void {
    this.out.destroy();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
