import { type InTx, type Tx, tableName } from "@/db/bulk";
import { balances, liquidityStakes, walletPositions } from "@/db/schema";
import { HeldBalances } from "./balances";
import { HeldBooks } from "./positions";

/**
 * What a bulk load (scripts/fixtures/bulk.ts) holds in the process from range to range and writes
 * once when its backfill ends: balances, positions and stakes. Nothing in a backfill reads them
 * but the ranges' own folds and reconciliation, and their upserts were two fifths of a 25,000-token
 * backfill's statement time. A range folds from them as from the stored rows, and what it folded
 * is held only once its transaction commits: a range written again without a quarantined entity,
 * or a trial write, starts from the same books.
 */
export class Held {
  readonly balances = new HeldBalances();
  readonly positions = new HeldBooks();

  /** Empty, for a database that holds none of these rows (else a fold would miss them). */
  static async onEmpty(db: Tx): Promise<Held> {
    const tables = [balances, walletPositions, liquidityStakes];
    const [{ stored }] = await db.unsafe<{ stored: boolean }[]>(
      `select ${tables.map((t) => `exists (select from ${tableName(t)})`).join(" or ")} as stored`,
    );
    if (stored)
      throw new Error("a bulk backfill holds balances and positions from its first range: this database has some");
    return new Held();
  }

  /** After a range's transaction commits: what its folds staged is held. */
  keep() {
    this.balances.keep();
    this.positions.keep();
  }

  /** After a range's transaction rolls back. */
  drop() {
    this.balances.drop();
    this.positions.drop();
  }

  /** Inserts everything held (the tables hold none of it yet). */
  async write(tx: InTx) {
    await this.balances.write(tx);
    await this.positions.write(tx);
  }
}
