import { fillPlaceholders, Param, SQL, StringChunk, sql } from "drizzle-orm";
import { toQuery } from "./client";

type Rendered = { texts: StringChunk[]; params: unknown[] };

/**
 * A read statement whose text never changes, rendered once: Drizzle renders a template's tables,
 * columns and nested fragments again on every call (100 µs for the token profile's, a tenth of its
 * server CPU), where this statement costs one chunk per parameter. `build` gets a placeholder for
 * each name it reads; a call gives their values and returns the statement, which nests in others
 * (an authorized read) as any SQL does; a value that is SQL (another statement) takes its placeholder's
 * place in the text. A statement of a few shapes (a page after a cursor or at an
 * offset) names its shape, `V`, and each shape is rendered once.
 */
export function statement<K extends string, V extends string = "">(
  build: (p: Record<K, SQL>, shape: V) => SQL,
): (values: Record<K, unknown>, shape?: V) => SQL {
  const shapes = new Map<V, Rendered>();
  const render = (shape: V): Rendered => {
    const placeholders = new Proxy({} as Record<K, SQL>, {
      get: (_, name) => sql.placeholder(String(name)) as unknown as SQL,
    });
    const { text, params } = toQuery(build(placeholders, shape));
    const texts = text.split(/\$(\d+)/);
    // Drizzle numbers the parameters $1, $2, … in the order of the text: anything else is a `$n`
    // inside a literal, which this split would take for one.
    const numbers = texts.filter((_, i) => i % 2 === 1);
    if (numbers.length !== params.length || numbers.some((n, i) => Number(n) !== i + 1)) {
      throw new Error(`statement: its text holds a $n that is not a parameter:\n${text}`);
    }
    return { texts: texts.filter((_, i) => i % 2 === 0).map((t) => new StringChunk(t)), params };
  };
  return (values, shape = "" as V) => {
    let rendered = shapes.get(shape);
    if (!rendered) shapes.set(shape, (rendered = render(shape)));
    const { texts } = rendered;
    const chunks: (StringChunk | Param | SQL)[] = [texts[0]];
    fillPlaceholders(rendered.params, values).forEach((v, i) =>
      chunks.push(v instanceof SQL ? v : new Param(v), texts[i + 1]),
    );
    return new SQL(chunks);
  };
}
