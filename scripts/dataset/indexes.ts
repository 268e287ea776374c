import type postgres from "postgres";

type Conn = postgres.ReservedSql;
export type SavedIndex = { name: string; def: string };

/**
 * Drops the secondary indexes of `tables` (those not backing a primary key or unique
 * constraint) and returns their exact definitions from pg_indexes, to be re-created after a
 * bulk load: building an index once from sorted data beats maintaining it row by row.
 */
export async function dropSecondaryIndexes(conn: Conn, tables: readonly string[]): Promise<SavedIndex[]> {
  const saved = await conn<SavedIndex[]>`
    select i.indexname as name, i.indexdef as def
      from pg_indexes i
     where i.schemaname = current_schema() and i.tablename = any(${tables as string[]})
       and not exists (
         select 1 from pg_constraint c
          where c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)
     order by i.tablename, i.indexname`;
  for (const { name } of saved) await conn.unsafe(`drop index "${name}"`);
  return saved;
}

export async function restoreIndexes(conn: Conn, saved: SavedIndex[]): Promise<void> {
  for (const { def } of saved) await conn.unsafe(def);
}
