/**
 * The import graph of a folder's TypeScript files, and its circles: what a layering test asserts
 * (worker/import-graph.test.ts). Every import counts, type-only ones and re-exports included: a
 * circle of types still ties two modules' meanings together. Specifiers resolve as tsconfig.json
 * has them: relative, or `@/` from the repository's root; others (packages) leave the graph.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export const REPO_ROOT = path.resolve(import.meta.dirname, "..");

/** File (relative to the root, `/`-separated) -> the files of the graph it imports. */
export type ImportGraph = Map<string, string[]>;

const SOURCE = /\.tsx?$/;
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

function listSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "node_modules" ? [] : listSources(full);
    return SOURCE.test(name) && !name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The file a specifier names, or null for a package or a file that does not exist. */
function resolve(root: string, from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/")
    ? path.join(root, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base) return null;
  const stem = base.replace(/\.js$/, "");
  for (const candidate of [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    path.join(base, "index.ts"),
    path.join(base, "index.tsx"),
  ]) {
    if (SOURCE.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * The imports among the source files under `folder` (relative to `root`), test files left out:
 * tests may reach across layers, the code they test may not.
 */
export function importGraph(folder: string, root = REPO_ROOT): ImportGraph {
  const files = listSources(path.join(root, folder)).filter((f) => !isTest(f));
  const inside = new Set(files);
  const rel = (file: string) => path.relative(root, file).split(path.sep).join("/");
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .map((i) => resolve(root, file, i.fileName))
      .filter((t): t is string => t !== null && inside.has(t));
    graph.set(rel(file), [...new Set(targets.map(rel))].sort());
  }
  return graph;
}

/**
 * The graph's circles: each strongly connected set of two or more files (or a file importing
 * itself), files sorted, circles in order of their first file. Empty when the imports point one way.
 */
export function importCircles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { file: string; edge: number }[] = [{ file: start, edge: 0 }];
    index.set(start, next), low.set(start, next++), stack.push(start), onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const edges = graph.get(top.file) ?? [];
      if (top.edge < edges.length) {
        const to = edges[top.edge++];
        if (!index.has(to)) {
          index.set(to, next), low.set(to, next++), stack.push(to), onStack.add(to);
          work.push({ file: to, edge: 0 });
        } else if (onStack.has(to)) low.set(top.file, Math.min(low.get(top.file)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].file;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.file)!));
      }
      if (low.get(top.file) !== index.get(top.file)) continue;
      const members: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        members.push(member);
      } while (member !== top.file);
      if (members.length > 1 || edges.includes(top.file)) circles.push(members.sort());
    }
  }
  return circles.sort((a, b) => a[0].localeCompare(b[0]));
}
