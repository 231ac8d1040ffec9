import { setTimeout as sleep } from "node:timers/promises";
import { rateLimitWindow } from "../../src/http/rate-limiter.js";

/**
 * Waits, when the current one-minute rate-limit window has less than
 * `seconds` left, for the next one to begin: a test comparing the counts of
 * requests sent one after another then sees them all in one window.
 */
export async function withinOneWindow(seconds = 15): Promise<void> {
  const now = Date.now();
  const next = rateLimitWindow(now).getTime() + 60_000;
  if (next - now < seconds * 1000) await sleep(next - now + 10);
}
