import { createHash } from "node:crypto";

// Entity tags (RFC 9110 §8.8.3) as this service writes them: "<version>-<hash>",
// the version of what the read can show and a short hash of everything else that shapes the
// bytes (docs/design/decisions.md §9).

/** One entity-tag of an If-None-Match or If-Match list. */
export interface EntityTag {
  weak: boolean;
  /** Between the quotes. */
  opaque: string;
}

/** A parsed If-None-Match or If-Match: `*`, or a list of tags (empty when the header is malformed: it matches nothing). */
export type TagCondition = { any: true } | { any: false; tags: EntityTag[] };

const LIST_ITEM = /\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(?:,|$)/y;
const OUR_OPAQUE = /^(\d{1,18})-([0-9a-f]{16})(?:-(?:br|gz))?$/;
/** The suffix a coded representation's tag carries (docs/design/decisions.md, "Compression"). */
const CODING_SUFFIX = /-(?:br|gz)$/;
const SUFFIX_OF_CODING: Record<string, string> = { br: "-br", gzip: "-gz" };

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

/**
 * The strong tag of the same representation sent in a content coding: `"x"`
 * becomes `"x-br"` or `"x-gz"` (RFC 9110 §8.8.3: each coding's bytes need a tag
 * of their own). A weak tag stays as it is, and so does any tag for identity.
 */
export function codedEntityTag(etag: string, coding: string): string {
  const suffix = SUFFIX_OF_CODING[coding];
  if (!suffix || !etag.startsWith('"') || !etag.endsWith('"') || etag.length < 2) return etag;
  return `"${etag.slice(1, -1)}${suffix}"`;
}

/** The tag as sent without a coding: a coded tag of ours stands for the same data. */
function uncodedOpaque(tag: EntityTag): string {
  return OUR_OPAQUE.test(tag.opaque) ? tag.opaque.replace(CODING_SUFFIX, "") : tag.opaque;
}

/**
 * If-Match's strong comparison (RFC 9110 §8.8.3.2): is the tag strong, and the
 * same as this one in any coding?
 */
export function strongMatch(tag: EntityTag, etag: string): boolean {
  return !tag.weak && `"${uncodedOpaque(tag)}"` === etag;
}

/**
 * If-None-Match's weak comparison (RFC 9110 §13.1.2): the listed tag that
 * names this one in any coding, quoted as the client holds it; null when none does.
 */
export function noneMatchHit(condition: TagCondition, etag: string): string | null {
  if (condition.any) return etag;
  const hit = condition.tags.find((tag) => `"${uncodedOpaque(tag)}"` === etag);
  return hit ? `"${hit.opaque}"` : null;
}
