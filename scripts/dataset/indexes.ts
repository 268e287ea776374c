import type postgres from "postgres";

type Conn = postgres.ReservedSql;

/**
 * Drops the indexes of `tables` for a bulk load and returns the statements that re-create them
 * exactly: secondary indexes from their pg_indexes definition, primary keys from
 * pg_get_constraintdef (under their own name). Primary keys that a foreign key depends on stay.
 * Building an index once from the loaded table beats maintaining it row by row in random order.
 */
export async function dropIndexes(conn: Conn, tables: readonly string[]): Promise<string[]> {
  const primaryKeys = await conn<{ table: string; name: string; def: string }[]>`
    select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as def
      from pg_constraint c
     where c.contype = 'p' and c.connamespace = current_schema()::regnamespace
       and c.conrelid::regclass::text = any(${tables as string[]})
       and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.confrelid = c.conrelid)
     order by 1`;
  const secondary = await conn<{ name: string; def: string }[]>`
    select i.indexname as name, i.indexdef as def
      from pg_indexes i
     where i.schemaname = current_schema() and i.tablename = any(${tables as string[]})
       and not exists (
         select 1 from pg_constraint c
          where c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)
     order by i.tablename, i.indexname`;
  for (const { name } of secondary) await conn.unsafe(`drop index "${name}"`);
  for (const { table, name } of primaryKeys) await conn.unsafe(`alter table ${table} drop constraint "${name}"`);
  return [...primaryKeys.map(({ table, name, def }) => `alter table ${table} add constraint "${name}" ${def}`), ...secondary.map((i) => i.def)];
}
