// When a failed delivery is tried again (docs/reference/webhooks.md, "Retries").

/**
 * The delay before the retry that follows failed attempt `attempt` (1-based),
 * moved by up to `jitter` of itself either way so that deliveries that failed
 * together do not all come back together; null when the schedule is spent.
 */
export function retryDelayMs(
  schedule: readonly number[],
  attempt: number,
  jitter: number,
  random: () => number = Math.random,
): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  return Math.max(0, Math.round(base * (1 + jitter * (2 * random() - 1))));
}
