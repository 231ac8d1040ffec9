import { createHash } from "node:crypto";

// Entity tags (RFC 9110 §8.8.3) as this service writes them: "<version>-<hash>",
// the buyer's data version and a short hash of everything else that shapes the
// bytes (docs/decisions.md §9).

/** One entity-tag of an If-None-Match or If-Match list. */
export interface EntityTag {
  weak: boolean;
  /** Between the quotes. */
  opaque: string;
}

/** A parsed If-None-Match or If-Match: `*`, or a list of tags (empty when the header is malformed: it matches nothing). */
export type TagCondition = { any: true } | { any: false; tags: EntityTag[] };

const LIST_ITEM = /\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(?:,|$)/y;
const OUR_OPAQUE = /^(\d{1,18})-([0-9a-f]{16})$/;

/** The header's condition, or null when the header is absent. Malformed lists match nothing, never fail. */
export function parseTagCondition(header: string | null): TagCondition | null {
  if (header === null) return null;
  const text = header.trim();
  if (text === "*") return { any: true };
  const tags: EntityTag[] = [];
  LIST_ITEM.lastIndex = 0;
  while (LIST_ITEM.lastIndex < text.length) {
    const start = LIST_ITEM.lastIndex;
    const match = LIST_ITEM.exec(text);
    if (!match || LIST_ITEM.lastIndex === start) return { any: false, tags: [] };
    tags.push({ weak: match[1] !== undefined, opaque: match[2] ?? "" });
  }
  return { any: false, tags };
}

/** The version a tag of ours carries, or null for a tag we did not write. */
export function versionOfTag(tag: EntityTag): bigint | null {
  const match = OUR_OPAQUE.exec(tag.opaque);
  return match?.[1] === undefined ? null : BigInt(match[1]);
}

/** A short hash of the parts, for the second half of a tag. */
export function representationHash(parts: readonly string[]): string {
  return createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 16);
}

/** The strong tag, quoted, as the ETag header carries it. */
export function formatEntityTag(version: bigint, hash: string): string {
  return `"${version}-${hash}"`;
}

/** If-Match's strong comparison (RFC 9110 §8.8.3.2): is the tag strong, and the same as this one? */
export function strongMatch(tag: EntityTag, etag: string): boolean {
  return !tag.weak && `"${tag.opaque}"` === etag;
}

/** If-None-Match's weak comparison (RFC 9110 §13.1.2): does any listed tag name this one? */
export function noneMatchHits(condition: TagCondition, etag: string): boolean {
  if (condition.any) return true;
  return condition.tags.some((tag) => `"${tag.opaque}"` === etag);
}
