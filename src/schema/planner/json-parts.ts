// JSON texts written in parts: the rows' own texts and constants, joined once.

/**
 * The parts of a JSON text being written. Its array is kept from text to
 * text and overwritten, so that it is not grown anew for every row (rows of
 * one read have about as many parts each).
 */
export class JsonParts {
  private readonly items: string[] = [];
  private count = 0;

  add(text: string): void {
    this.items[this.count] = text;
    this.count += 1;
  }

  /** Forgets the parts added so far, keeping the array. */
  clear(): void {
    this.count = 0;
  }

  /** The parts added since the last `clear`, joined. */
  joined(): string {
    this.items.length = this.count;
    return this.items.join("");
  }
}

/**
 * Lists of parts not in use. Writing is synchronous: one list serves every
 * `Writer` call, and a writer called while another writes (a page below a
 * row) takes a second.
 */
export const idleParts: JsonParts[] = [];

/**
 * The JSON array of items given as JSON texts, made as one flat text: joined
 * inside its brackets, not joined and then copied again to add them (a page
 * of items is the largest text a read makes).
 */
export function jsonArrayText(items: readonly string[]): string {
  const last = items.length - 1;
  if (last < 0) return "[]";
  const joined = items.slice();
  joined[0] = `[${joined[0]}`;
  joined[last] = `${joined[last]}]`;
  return joined.join(",");
}
