// JSON texts written in parts: the rows' own texts and constants.

/**
 * The parts of a JSON text being written, appended to one text as they come:
 * V8 keeps such a text as a tree of its parts and copies them out once, when
 * the text is first read whole, which costs a row less than `Array#join` of
 * its few dozen parts.
 */
export class JsonParts {
  private text = "";

  add(text: string): void {
    this.text += text;
  }

  /** Forgets the parts added so far. */
  clear(): void {
    this.text = "";
  }

  /** The parts added since the last `clear`, joined. */
  joined(): string {
    return this.text;
  }
}

/**
 * Parts not in use. Writing is synchronous: one serves every
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
