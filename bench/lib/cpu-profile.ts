/**
 * Self time by source file from the V8 CPU profiles a Node process writes when it ends, started
 * with NODE_OPTIONS="--import CPU_PROFILE_PRELOAD" and CPU_PROFILE_DIR: where a process's
 * JavaScript time goes, without touching its code.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

type CpuProfile = {
  nodes: { id: number; callFrame: { url: string; functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
};

const REPO = path.resolve(import.meta.dirname, "..", "..");
export const CPU_PROFILE_PRELOAD = path.join(import.meta.dirname, "cpu-profile-preload.mjs");

/** A profile node's place: a repo file, a package, Node's internals, or V8's own (idle, GC, program). */
function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node internals";
  const file = url.replace(/^file:\/\//, "");
  const pkg = file.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  return path.relative(REPO, file);
}

/** Self milliseconds by place over every profile in `dir`, largest first. */
export function cpuSelfTime(dir: string): { place: string; ms: number; share: number }[] {
  const byPlace = new Map<string, number>();
  for (const name of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(readFileSync(path.join(dir, name), "utf8")) as CpuProfile;
    const places = new Map(profile.nodes.map((n) => [n.id, placeOf(n.callFrame.url, n.callFrame.functionName)]));
    profile.samples.forEach((id, i) => {
      const place = places.get(id)!;
      byPlace.set(place, (byPlace.get(place) ?? 0) + profile.timeDeltas[i] / 1000);
    });
  }
  const total = [...byPlace.values()].reduce((a, b) => a + b, 0);
  return [...byPlace]
    .map(([place, ms]) => ({ place, ms: Math.round(ms), share: ms / total }))
    .sort((a, b) => b.ms - a.ms);
}
