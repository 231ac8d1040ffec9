// Input checks collect every problem of a request, so that a client fixes it in one round.
import { describe, expect, it } from "vitest";
import { InputChecks, MAX_STRING_LENGTH } from "../../src/domain/input-checks.js";

describe("InputChecks", () => {
  it("trims required text and refuses it blank", () => {
    const checks = new InputChecks();
    expect(checks.requiredText(["name"], "  Glycerin  ")).toBe("Glycerin");
    checks.requiredText(["code"], "   ");
    checks.requiredText(["note"], null);
    expect(checks.problems).toEqual([
      { path: ["code"], code: "required", message: "must not be blank" },
      { path: ["note"], code: "required", message: "must not be blank" },
    ]);
  });

  it("counts characters, not UTF-16 units, against the length limit", () => {
    const checks = new InputChecks();
    checks.requiredText(["emoji"], "😀".repeat(MAX_STRING_LENGTH));
    expect(checks.problems).toEqual([]);
    checks.requiredText(["long"], "a".repeat(MAX_STRING_LENGTH + 1));
    checks.optionalText(["short"], "abcd", 3);
    expect(checks.problems.map((problem) => [problem.path[0], problem.code])).toEqual([
      ["long", "too_long"],
      ["short", "too_long"],
    ]);
  });

  it("refuses the NUL character, which PostgreSQL text cannot hold", () => {
    const checks = new InputChecks();
    checks.requiredText(["name"], "a\u0000b");
    expect(checks.problems).toEqual([
      { path: ["name"], code: "invalid", message: "must not contain the NUL character (U+0000)" },
    ]);
  });

  it("leaves optional text that is null or absent as given, and may refuse it blank when given", () => {
    const checks = new InputChecks();
    expect(checks.optionalText(["a"], null)).toBeNull();
    expect(checks.optionalText(["a"], undefined)).toBeUndefined();
    expect(checks.optionalText(["a"], "  ")).toBe("");
    expect(checks.optionalNonBlankText(["b"], undefined)).toBeUndefined();
    checks.optionalNonBlankText(["b"], " ");
    expect(checks.problems).toEqual([{ path: ["b"], code: "required", message: "must not be blank" }]);
  });

  it("refuses a negative count and accepts zero", () => {
    const checks = new InputChecks();
    checks.nonNegativeInteger(["quantity"], 0);
    checks.nonNegativeInteger(["quantity"], null);
    checks.nonNegativeInteger(["quantity"], -1);
    expect(checks.problems).toEqual([
      { path: ["quantity"], code: "out_of_range", message: "must be zero or more" },
    ]);
  });

  it.each([
    ["ana@example.com", true],
    ["a.b+c@mail.example.co.uk", true],
    ["", true],
    ["ana@example", false],
    ["ana example.com", false],
    ["ana@@example.com", false],
    ["ana@exa mple.com", false],
    ["ana@.com", false],
  ])("email %j accepted: %s", (email, accepted) => {
    const checks = new InputChecks();
    checks.email(["email"], email);
    expect(checks.problems.length === 0).toBe(accepted);
  });
});
