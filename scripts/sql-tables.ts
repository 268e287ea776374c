import { readFileSync } from "node:fs";
import path from "node:path";
import { getTableName, is, Table } from "drizzle-orm";
import ts from "typescript";
import * as schema from "@/db/schema";
import { sourceFiles } from "./import-graph";

/**
 * SQL that names a table of the schema literally (`from tokens t`) instead of through its Drizzle
 * object (`from ${tokens} t`), for scripts/sql-tables.test.ts: a renamed table or column should
 * fail tsc, not a request. SQL is written in template literals, so only their text is read:
 * comments and plain strings (descriptions, messages) are not SQL here.
 */

/** Every table the schema declares, by its SQL name. */
export const schemaTables = (): string[] =>
  Object.values(schema as Record<string, unknown>)
    .filter((v): v is Table => is(v, Table))
    .map((t) => getTableName(t));

/** A place that names a table literally: `file:line: <the words>`. */
export type LiteralTable = string;

/** The literal table names in the template literals of `text` (a TypeScript source named `file`). */
export function literalTablesIn(file: string, text: string, tables: string[]): LiteralTable[] {
  // Table names are SQL identifiers (letters, digits, underscores): nothing to escape.
  const pattern = new RegExp(`\\b(?:from|join|update|into)\\s+(?:${tables.join("|")})\\b`, "gi");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LiteralTable[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const start = node.getStart(source);
      for (const m of node.getText(source).matchAll(pattern)) {
        const { line } = source.getLineAndCharacterOfPosition(start + m.index);
        found.push(`${file}:${line + 1}: ${m[0].replace(/\s+/g, " ")}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The literal table names in the sources (tests apart) under `dirs`, repository-relative. */
export function literalTables(root: string, dirs: string[], tables = schemaTables()): LiteralTable[] {
  return dirs
    .flatMap((d) => sourceFiles(root, d))
    .flatMap((f) => literalTablesIn(f, readFileSync(path.join(root, f), "utf8"), tables));
}
