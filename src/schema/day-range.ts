// Dates in list filters and queries are whole UTC days, both ends included:
// a range runs from the start of its first day to the start of the day after
// its last.
import type { FieldProblem } from "../domain/errors.js";

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

/**
 * A filter's pair of days (`createdAtFrom`, `createdAtTo`) as a Prisma `where`
 * on `field`, empty when neither is given; a range that ends before it starts
 * is a problem of `filter.<fromName>`.
 */
export function dayFilter(
  field: string,
  from: Date | null | undefined,
  to: Date | null | undefined,
  fromName: string,
  problems: FieldProblem[],
): object {
  if (from && to && from > to) {
    problems.push({
      path: ["filter", fromName],
      code: "invalid",
      message: "must not be later than the end date",
    });
  }
  return from || to ? { [field]: inclusiveDays(from, to) } : {};
}
