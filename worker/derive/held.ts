import { type InTx, type Tx, tableName } from "@/db/bulk";
import { balances, holderCountHistory, liquidityStakes, walletPositions, wallets } from "@/db/schema";
import type { ChainProfile } from "../profiles";
import { HeldBalances } from "./balances";
import { HeldReserves } from "./pool-reserves";
import { HeldBooks } from "./positions";
import { HeldWallets } from "./wallets";

/**
 * What a bulk load (scripts/fixtures/bulk.ts) holds in the process from range to range and writes
 * once when its backfill ends: balances and holder counts, positions and stakes, the pools'
 * reserves, and the wallets' activity and funders. Nothing in a backfill reads them but the
 * ranges' own folds, reconciliation and quote-token funding (and the state's load): balances' and
 * positions' upserts were two fifths of a 25,000-token backfill's statement time, later the pools'
 * updates and the counts' upserts a fifth, and the wallets' upserts and links a quarter
 * (docs/scaling.md). A range folds from them as from the stored rows, and what it folded is held
 * only once its transaction commits: a range written again without a quarantined entity, or a
 * trial write, starts from the same books.
 */
export class Held {
  readonly balances = new HeldBalances();
  readonly positions = new HeldBooks();
  readonly reserves = new HeldReserves();
  readonly wallets = new HeldWallets();

  /** Empty, for a database that holds none of these rows (else a fold would miss them). */
  static async onEmpty(db: Tx): Promise<Held> {
    const tables = [balances, holderCountHistory, walletPositions, liquidityStakes, wallets];
    const [{ stored }] = await db.unsafe<{ stored: boolean }[]>(
      `select ${tables.map((t) => `exists (select from ${tableName(t)})`).join(" or ")} as stored`,
    );
    if (stored)
      throw new Error(
        "a bulk backfill holds balances, holder counts, positions and wallets from its first range: this database has some",
      );
    return new Held();
  }

  /** After a range's transaction commits: what its folds staged is held. */
  keep() {
    this.balances.keep();
    this.positions.keep();
    this.reserves.keep();
    this.wallets.keep();
  }

  /** After a range's transaction rolls back. */
  drop() {
    this.balances.drop();
    this.positions.drop();
    this.reserves.drop();
    this.wallets.drop();
  }

  /** Inserts everything held (the tables hold none of it yet). */
  async write(tx: InTx, profile: ChainProfile) {
    await this.balances.write(tx);
    await this.positions.write(tx);
    await this.reserves.write(tx);
    await this.wallets.write(tx, profile);
  }
}
