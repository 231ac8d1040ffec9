import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Heap used beyond what the last full collection left before a quiet process collects again. */
const GROWTH_BYTES = 32 * 1024 * 1024;
/** Ticks (seconds) of the window a process must be quiet over. */
const QUIET_TICKS = 10;
/** Requests in that window that still count as quiet: health checks and scrapes. */
const QUIET_REQUESTS = 10;

export interface IdleCollection {
  /** Counts a request. */
  requested(): void;
  /** Called every second: collects once the process has been quiet for the window and its heap has grown. */
  tick(): void;
}

/**
 * V8 collects garbage only when JavaScript allocates, so a process that
 * falls quiet after a burst of large answers keeps their dead objects, and
 * the memory under them, until its next burst: possibly for good. Once the
 * process has been quiet for a while (health checks and scrapes do not
 * count as work), one full collection gives that memory back. Made callable
 * without starting Node with `--expose-gc`; where the runtime refuses,
 * nothing is collected by hand.
 */
export function createIdleCollection(): IdleCollection {
  let collect: (() => void) | null = null;
  try {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("gc");
    if (typeof gc === "function") collect = () => gc();
  } catch {
    collect = null;
  }
  let leftAfterLast = process.memoryUsage().heapUsed;
  const window: number[] = [];
  let current = 0;
  return {
    requested() {
      current += 1;
    },
    tick() {
      window.push(current);
      current = 0;
      if (window.length > QUIET_TICKS) window.shift();
      if (!collect || window.length < QUIET_TICKS) return;
      if (window.reduce((sum, count) => sum + count, 0) > QUIET_REQUESTS) return;
      if (process.memoryUsage().heapUsed < leftAfterLast + GROWTH_BYTES) return;
      collect();
      leftAfterLast = process.memoryUsage().heapUsed;
    },
  };
}
