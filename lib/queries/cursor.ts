import { z } from "zod";
import { InvalidInput } from "@/lib/domain/errors";

/**
 * Keyset cursors of the paged lists (`cursor=` in, `next_cursor` out): where the next page
 * starts, as the last row's sort key and its tie-breaker, so a walk neither repeats nor skips a
 * row when rows before it arrive or leave. A cursor also names its list (and the list's order),
 * so one list's cursor is refused by another, and carries the number of the page it opens (the
 * envelope's `page`). Opaque to clients: base64url of a JSON array, validated here.
 */

/** A cursor's position: the list's own tuple of sort keys (numbers, strings, null for "no value"). */
type Position = (string | number | null)[];

export function encodeCursor(list: string, page: number, position: Position): string {
  return Buffer.from(JSON.stringify([list, page, ...position])).toString("base64url");
}

const refused = (why: string) =>
  new InvalidInput("cursor", `cursor: ${why}; pass next_cursor as the previous page returned it.`);

const header = z.tuple([z.string(), z.number().int().min(2).max(1_000_000)]).rest(z.unknown());

/**
 * The page number and position a cursor holds, when it is one of `list`'s; anything else is
 * InvalidInput naming `cursor`. `position` validates the tuple after the list and page.
 */
export function decodeCursor<S extends z.ZodType>(
  text: string,
  list: string,
  position: S,
): { page: number; position: z.output<S> } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw refused("not a cursor");
  }
  const head = header.safeParse(parsed);
  if (!head.success) throw refused("not a cursor");
  const [name, page, ...rest] = head.data;
  if (name !== list)
    throw refused(
      name.split(":")[0] === list.split(":")[0] ? "made for another order of this list" : "made for another list",
    );
  const body = position.safeParse(rest);
  if (!body.success) throw refused("not a cursor");
  return { page, position: body.data };
}

/** A sort key of a cursor: a finite number, or null where the row had no value (it sorts last). */
/**
 * decodeCursor for a list of one owner (a token's holders, a wallet's events, a search's query),
 * whose position starts with the owner it was made for: another owner's cursor is refused, as
 * `made for <whose>`.
 */
export function decodeOwnedCursor<S extends z.ZodType>(
  text: string,
  list: string,
  position: S,
  owner: string,
  whose: string,
) {
  const cursor = decodeCursor(text, list, position);
  if ((cursor.position as unknown[])[0] !== owner) throw refused(`made for ${whose}`);
  return cursor;
}

export const cursorNumber = z.number().nullable();
/** A lowercase address of a cursor. */
export const cursorAddress = z.string().regex(/^0x[0-9a-f]{40}$/);
