// Dates in list filters and queries are whole UTC days, both ends included:
// a range runs from the start of its first day to the start of the day after
// its last.

const ONE_DAY_MS = 86_400_000;

/** Prisma's range for the days `from` to `to`, both included; either end may be open. */
export function inclusiveDays(
  from: Date | null | undefined,
  to: Date | null | undefined,
): { gte?: Date; lt?: Date } {
  return {
    ...(from ? { gte: from } : {}),
    ...(to ? { lt: new Date(to.getTime() + ONE_DAY_MS) } : {}),
  };
}
