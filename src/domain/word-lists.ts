/** `["a", "b", "c"]` → "a, b or c": alternatives as a sentence names them. */
export function orList(words: readonly string[]): string {
  const last = words.at(-1) ?? "";
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${last}` : last;
}
