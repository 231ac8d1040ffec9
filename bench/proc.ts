import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

// Linux reports CPU time in clock ticks; 100 per second almost everywhere.
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User plus system CPU time the process has used, in milliseconds (10 ms resolution). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name may contain spaces; the fields after it are fixed.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** The process's children, from each process's parent pid in /proc. */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name in parentheses may hold spaces; the parent pid is the second field after it.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) children.push(Number(entry));
    } catch {
      // Gone since the listing.
    }
  }
  return children;
}

/**
 * CPU time of the process and all its live descendants, in milliseconds: a
 * cluster's primary does little itself, its workers do the work. A
 * descendant that exits meanwhile takes its time with it.
 */
export function treeCpuMs(pid: number): number {
  let total = 0;
  const pending = [pid];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    try {
      total += cpuMs(next);
    } catch {
      continue;
    }
    pending.push(...childrenOf(next));
  }
  return total;
}

/** A line of /proc/<pid>/status in kB, e.g. VmHWM (peak resident set) or VmRSS. */
export function statusKb(pid: number, field: "VmHWM" | "VmRSS"): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(
      readFileSync(`/proc/${pid}/status`, "utf8"),
    );
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** The highest VmHWM each process reached before its peak was last reset. */
const peaksBeforeReset = new Map<number, number>();

/**
 * Starts a new peak: VmHWM falls to the current resident set (Linux's
 * clear_refs "5"). False where the kernel refuses it; the peak then runs from
 * the process's start.
 */
export function resetPeak(pid: number): boolean {
  const peak = statusKb(pid, "VmHWM");
  if (peak !== null) peaksBeforeReset.set(pid, Math.max(peak, peaksBeforeReset.get(pid) ?? 0));
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** The process's peak resident set since it started, in kB, across the resets above. */
export function peakSinceStartKb(pid: number): number | null {
  const current = statusKb(pid, "VmHWM");
  const before = peaksBeforeReset.get(pid);
  if (current === null) return before ?? null;
  return Math.max(current, before ?? 0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the process and its descendants have been nearly idle (under 10% of a core) for two
 * consecutive 250 ms windows: requests abandoned when a measurement ends are
 * still being served, and must not eat into the next measurement.
 */
export async function settle(pid: number, maxMs = 15_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let quiet = 0;
  let last = treeCpuMs(pid);
  while (quiet < 2 && Date.now() < deadline) {
    await sleep(250);
    const now = treeCpuMs(pid);
    quiet = now - last <= 25 ? quiet + 1 : 0;
    last = now;
  }
}
