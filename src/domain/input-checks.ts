import type { FieldProblem } from "./errors.js";

export const MAX_STRING_LENGTH = 255;

/** The JSON Schema of a text `requiredText` accepts: not blank, some character other than white space. */
export const NON_BLANK_JSON_SCHEMA = { minLength: 1, pattern: "\\S" } as const;

type Path = (string | number)[];

/**
 * Collects every problem with an input instead of stopping at the first, so
 * that a client can fix a request in one round.
 */
export class InputChecks {
  readonly problems: FieldProblem[] = [];

  add(path: Path, code: FieldProblem["code"], message: string): void {
    this.problems.push({ path, code, message });
  }

  /** Trimmed, non-blank, at most `max` characters; returns the trimmed text. */
  requiredText(path: Path, value: string | null | undefined, max = MAX_STRING_LENGTH): string {
    const text = value?.trim() ?? "";
    if (text === "") {
      this.add(path, "required", "must not be blank");
      return text;
    }
    this.checkText(path, text, max);
    return text;
  }

  /** Optional text: null or absent stays as given; otherwise trimmed and at most `max` characters. */
  optionalText(
    path: Path,
    value: string | null | undefined,
    max = MAX_STRING_LENGTH,
  ): string | null | undefined {
    if (value === null || value === undefined) return value;
    const text = value.trim();
    this.checkText(path, text, max);
    return text;
  }

  /** Optional text that, when given, must not be blank: null or absent stays as given. */
  optionalNonBlankText(
    path: Path,
    value: string | null | undefined,
    max = MAX_STRING_LENGTH,
  ): string | null | undefined {
    if (value === null || value === undefined) return value;
    return this.requiredText(path, value, max);
  }

  nonNegativeInteger(path: Path, value: number | null | undefined): void {
    if (value !== null && value !== undefined && value < 0) {
      this.add(path, "out_of_range", "must be zero or more");
    }
  }

  email(path: Path, value: string): void {
    // Deliberately simple: one @, a dot in the domain, no spaces. Deliverability is not ours to judge.
    if (value !== "" && !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value)) {
      this.add(path, "invalid", "must be a valid email address");
    }
  }

  private checkText(path: Path, text: string, max: number): void {
    if ([...text].length > max) this.add(path, "too_long", `must be at most ${max} characters`);
    // PostgreSQL text cannot hold U+0000.
    if (text.includes("\u0000")) this.add(path, "invalid", "must not contain the NUL character (U+0000)");
  }
}
