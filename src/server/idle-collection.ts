import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Heap used beyond what the last full collection left before an idle process collects again. */
const GROWTH_BYTES = 32 * 1024 * 1024;

/**
 * V8 collects garbage only when JavaScript allocates, so a process that
 * falls idle after a burst of large answers keeps their dead objects, and
 * the memory under them, until its next requests: possibly for good. After a
 * quiet spell, one full collection gives that memory back. Made callable
 * without starting Node with `--expose-gc`; where the runtime refuses,
 * nothing is collected by hand.
 */
export function createIdleCollection(): { whenIdle(): void } {
  let collect: (() => void) | null = null;
  try {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("gc");
    if (typeof gc === "function") collect = () => gc();
  } catch {
    collect = null;
  }
  let leftAfterLast = process.memoryUsage().heapUsed;
  return {
    whenIdle() {
      if (!collect || process.memoryUsage().heapUsed < leftAfterLast + GROWTH_BYTES) return;
      collect();
      leftAfterLast = process.memoryUsage().heapUsed;
    },
  };
}
