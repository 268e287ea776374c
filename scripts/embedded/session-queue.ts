import type { PGlite } from "@electric-sql/pglite";

type Job = {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (err: unknown) => void;
};

const SYNC = 0x53; // 'S': ends an extended-protocol sequence
const QUERY = 0x51; // 'Q': a simple query is a sequence of its own
const TERMINATE = 0x58; // 'X'

/**
 * Schedules wire-protocol messages from many connections onto the single PGlite session.
 * pglite-socket's own queue interleaves messages of different connections between Parse and
 * Sync, which crosses their unnamed statements ("bind message supplies 1 parameters..."). Here
 * a connection keeps the session from its first message until a Sync or simple Query leaves
 * no transaction open, so extended-protocol sequences and transactions run whole.
 */
export class SessionQueue {
  private owner: number | null = null;
  private jobs: Job[] = [];
  private pumping = false;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.jobs.push({ handlerId, message, onData, resolve, reject });
      void this.pump();
    });
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        const index = this.owner === null ? 0 : this.jobs.findIndex((j) => j.handlerId === this.owner);
        if (index === -1 || this.jobs.length === 0) return;
        const [job] = this.jobs.splice(index, 1);
        this.owner = job.handlerId;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(job.message, {
              onRawData: (data) => {
                bytes += data.length;
                job.onData(data);
              },
            }),
          );
          job.resolve(bytes);
        } catch (err) {
          job.reject(err);
        }
        // A startup packet has no type byte (its first byte is the high byte of its length).
        const type = job.message[0];
        const endsSequence = type === SYNC || type === QUERY || type === TERMINATE || type === 0;
        if (endsSequence && !this.db.isInTransaction()) this.owner = null;
      }
    } finally {
      this.pumping = false;
    }
  }

  getQueueLength(): number {
    return this.jobs.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.jobs = this.jobs.filter((j) => {
      if (j.handlerId !== handlerId) return true;
      j.reject(new Error("connection closed"));
      return false;
    });
  }

  /** A connection that leaves mid-transaction must not keep the session: roll back, hand it on. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
    this.owner = null;
    void this.pump();
  }
}
