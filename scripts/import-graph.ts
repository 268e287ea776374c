import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * The import graph of the repository's own TypeScript, for tests of its layering and circles
 * (scripts/import-graph.test.ts). Files are repository-relative paths; an edge is an import,
 * an export-from or a dynamic import() of another of our files (`@/` or relative), type-only
 * when it brings in nothing at run time.
 */

export type Edge = { from: string; to: string; typeOnly: boolean };
export type Graph = { files: string[]; edges: Edge[] };

const SOURCE = /\.(ts|tsx)$/;
// Tests and their helpers (test/ folders) may reach across layers; generated code is not ours to shape.
const SKIP = new Set(["node_modules", ".next", ".data", "dist", "generated", "test", "tests"]);
const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

/** The .ts and .tsx files at or under `dir` (repository-relative), tests and declarations left out. */
export function sourceFiles(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return SOURCE.test(dir) ? [dir] : [];
  return readdirSync(full, { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return SKIP.has(e.name) ? [] : sourceFiles(root, rel);
    if (!SOURCE.test(e.name) || /\.(test|spec|d)\.tsx?$/.test(e.name)) return [];
    return [rel];
  });
}

function resolve(root: string, from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else return undefined;
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    const full = path.join(root, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return undefined;
}

/** Every module specifier `file` names, with whether the reference is for types only. */
function specifiers(file: string, text: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const out: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings : undefined;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name && !!named && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)));
      out.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      out.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) out.push({ specifier: literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The graph of the files under `dirs` and the edges between our files they hold. */
export function importGraph(root: string, dirs: string[]): Graph {
  const files = dirs.flatMap((d) => sourceFiles(root, d));
  const edges: Edge[] = [];
  for (const from of files) {
    for (const { specifier, typeOnly } of specifiers(from, readFileSync(path.join(root, from), "utf8"))) {
      const to = resolve(root, from, specifier);
      if (to && to !== from) edges.push({ from, to, typeOnly });
    }
  }
  return { files, edges };
}

/**
 * The import circles among `files` (run-time edges only: a type-only import runs nothing), each
 * as the files of one strongly connected component, sorted.
 */
export function circles(graph: Graph, inScope: (file: string) => boolean = () => true): string[][] {
  const next = new Map<string, string[]>();
  for (const e of graph.edges) {
    if (e.typeOnly || !inScope(e.from) || !inScope(e.to)) continue;
    next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  }
  // Tarjan's strongly connected components, iterative so a deep chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let counter = 0;
  for (const start of graph.files.filter(inScope)) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const targets = next.get(top.node) ?? [];
      if (top.i < targets.length) {
        const to = targets[top.i++];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== top.node);
        if (component.length > 1) out.push(component.sort());
      }
    }
  }
  return out;
}

/**
 * A layering rule: files in `folder` (a path prefix) may import, besides their own folder, only
 * from `may` (prefixes); `typesFrom` they may import types from only.
 */
export type Layer = { folder: string; may: string[]; typesFrom?: string[] };

const under = (file: string, prefix: string) => file === prefix || file.startsWith(`${prefix}/`);

/** The longest layer prefix that holds `file`: a nested folder's rule wins over its parent's. */
export function layerOf(layers: Layer[], file: string): Layer | undefined {
  return layers.filter((l) => under(file, l.folder)).sort((a, b) => b.folder.length - a.folder.length)[0];
}

/** Every edge that leaves its layer for a folder the layer may not import ("from -> to"). */
export function layerViolations(graph: Graph, layers: Layer[]): string[] {
  const out: string[] = [];
  for (const e of graph.edges) {
    const layer = layerOf(layers, e.from);
    if (!layer || under(e.to, layer.folder)) continue;
    const allowed =
      layer.may.some((p) => under(e.to, p)) || (e.typeOnly && layer.typesFrom?.some((p) => under(e.to, p)));
    if (!allowed) out.push(`${e.from} -> ${e.to}${e.typeOnly ? " (types)" : ""}`);
  }
  return out;
}
