// Date filters are whole UTC days with both ends included: an order created
// late on the last day is inside the range, one at midnight after it is not.
import { describe, expect, it } from "vitest";
import { inclusiveDays } from "../../src/schema/day-range.js";

const day = (text: string) => new Date(`${text}T00:00:00.000Z`);
const within = (range: { gte?: Date; lt?: Date }, time: string) => {
  const at = new Date(time).getTime();
  return (
    (range.gte === undefined || at >= range.gte.getTime()) &&
    (range.lt === undefined || at < range.lt.getTime())
  );
};

describe("a range of days", () => {
  it("runs from the start of its first day to the end of its last", () => {
    const range = inclusiveDays(day("2026-03-01"), day("2026-03-31"));
    expect(within(range, "2026-03-01T00:00:00.000Z")).toBe(true);
    expect(within(range, "2026-03-31T23:59:59.999Z")).toBe(true);
    expect(within(range, "2026-04-01T00:00:00.000Z")).toBe(false);
    expect(within(range, "2026-02-28T23:59:59.999Z")).toBe(false);
  });

  it("of one day holds that whole day", () => {
    const range = inclusiveDays(day("2026-03-01"), day("2026-03-01"));
    expect(within(range, "2026-03-01T12:00:00.000Z")).toBe(true);
    expect(within(range, "2026-03-02T00:00:00.000Z")).toBe(false);
  });

  it("may be open at either end, or both", () => {
    expect(inclusiveDays(day("2026-03-01"), null)).toEqual({ gte: day("2026-03-01") });
    expect(inclusiveDays(undefined, day("2026-03-01"))).toEqual({ lt: day("2026-03-02") });
    expect(inclusiveDays(null, undefined)).toEqual({});
  });
});
