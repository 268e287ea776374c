import { readFileSync } from "node:fs";

/**
 * CPU time (ms) a process has used, from /proc (Linux): with the CPU per request of the server
 * and of its database sessions, a run on a busy machine still says what each request costs.
 */
export function cpuMs(pid: string | number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in USER_HZ ticks
  } catch {
    return 0; // gone, or not Linux
  }
}
