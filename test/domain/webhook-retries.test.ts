// When a failed delivery is tried again (docs/reference/webhooks.md, "Retries").
import { describe, expect, it } from "vitest";
import { retryDelayMs } from "../../src/domain/webhook-retries.js";

const SCHEDULE = [1_000, 60_000, 3_600_000];

describe("the retry schedule", () => {
  it("follows the schedule attempt by attempt without jitter", () => {
    expect([1, 2, 3].map((attempt) => retryDelayMs(SCHEDULE, attempt, 0))).toEqual(SCHEDULE);
  });

  it("stops once the schedule is spent", () => {
    expect(retryDelayMs(SCHEDULE, 4, 0)).toBeNull();
    expect(retryDelayMs([], 1, 0.2)).toBeNull();
  });

  it("moves a delay by at most the jitter either way", () => {
    expect(retryDelayMs(SCHEDULE, 2, 0.1, () => 0)).toBe(54_000);
    expect(retryDelayMs(SCHEDULE, 2, 0.1, () => 0.5)).toBe(60_000);
    expect(retryDelayMs(SCHEDULE, 2, 0.1, () => 1)).toBe(66_000);
  });

  it("spreads deliveries that failed together", () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(SCHEDULE, 3, 0.2)));
    expect(delays.size).toBeGreaterThan(1);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(2_880_000);
      expect(delay).toBeLessThanOrEqual(4_320_000);
    }
  });

  it("never waits less than nothing", () => {
    expect(retryDelayMs([0, 10], 1, 1, () => 0)).toBe(0);
    expect(retryDelayMs([0, 10], 2, 2, () => 0)).toBe(0);
  });
});
