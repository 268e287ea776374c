import postgres from "postgres";

/** The public schema as the catalogs describe it, each list sorted: what two databases must share. */
export async function describeSchema(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const list = async (query: postgres.PendingQuery<{ d: string }[]>) => (await query).map((r) => r.d).sort();
  try {
    return {
      // Column order is left out: columns added by ALTER TABLE come last, and every write names its columns.
      columns: await list(sql`
        select concat_ws(' ', table_name, column_name, data_type, numeric_precision, is_nullable, column_default) as d
          from information_schema.columns where table_schema = 'public'`),
      tables: await list(
        sql`select relname || ' ' || relpersistence::text as d from pg_class
             where relnamespace = 'public'::regnamespace and relkind = 'r'`,
      ),
      indexes: await list(sql`select indexdef as d from pg_indexes where schemaname = 'public'`),
      constraints: await list(sql`
        select conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) as d
          from pg_constraint where connamespace = 'public'::regnamespace`),
      functions: await list(
        sql`select pg_get_functiondef(oid) as d from pg_proc where pronamespace = 'public'::regnamespace`,
      ),
      // With whether each fires (O, or D when disabled): a bulk load stops some and must start them again.
      triggers: await list(
        sql`select pg_get_triggerdef(oid) || ' ' || tgenabled::text as d from pg_trigger where not tgisinternal`,
      ),
      plans: await list(sql`select row_to_json(p)::text as d from plans p`),
    };
  } finally {
    await sql.end();
  }
}
