// What a refused request says: the code clients branch on, and a message in
// the caller's terms.
import { describe, expect, it } from "vitest";
import {
  DomainError,
  describeRefusedTransition,
  invalidTransition,
  notFound,
  unauthenticated,
  validationFailed,
} from "../../src/domain/errors.js";

describe("domain errors", () => {
  it("a missing record names what was not found", () => {
    const error = notFound("Order 42");
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe("NOT_FOUND");
    expect(error.message).toBe("Order 42 not found");
  });

  it("a missing key names the header", () => {
    expect(unauthenticated().message).toContain("X-API-KEY");
  });

  it("one invalid field is named with its path; several are counted, each kept", () => {
    const one = validationFailed([
      { path: ["input", "email"], code: "invalid", message: "must be an email" },
    ]);
    expect(one.message).toBe("input.email: must be an email");
    const problems = [
      { path: ["input", "name"], code: "required", message: "must not be blank" },
      { path: ["input", "tags", 2], code: "duplicate", message: "is listed twice" },
    ] as const;
    const two = validationFailed([...problems].map((problem) => ({ ...problem, path: [...problem.path] })));
    expect(two.code).toBe("VALIDATION_FAILED");
    expect(two.message).toBe("2 fields are invalid");
    expect(two.fieldErrors?.map((problem) => problem.path)).toEqual([
      ["input", "name"],
      ["input", "tags", 2],
    ]);
  });

  it("a refused move names the statuses allowed instead, or says the order is final", () => {
    const error = invalidTransition("shipped", "order_placed", ["in_transit", "delivered"]);
    expect(error.code).toBe("INVALID_TRANSITION");
    expect(error.message).toBe(
      "An order cannot move from shipped to order_placed; allowed next statuses: in_transit, delivered",
    );
    expect(error.allowedStatuses).toEqual(["in_transit", "delivered"]);
    expect(error.transition).toEqual({ from: "shipped", to: "order_placed" });
    expect(invalidTransition("delivered", "shipped", []).message).toMatch(/; it is final$/);
  });

  it("each API words a refused move in its own spelling", () => {
    const upper = (status: string) => status.toUpperCase();
    expect(describeRefusedTransition({ from: "delivered", to: "shipped" }, [], upper)).toBe(
      "An order cannot move from DELIVERED to SHIPPED; it is final",
    );
  });
});
